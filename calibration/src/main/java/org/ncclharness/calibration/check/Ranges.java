package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.measure.SizeText;

/**
 * Consecutive sizes with one cause, gathered so that one regression is one line ("1 MiB–16 GiB at 62–83 % of
 * the baseline") instead of one line per size. Feed sizes in ascending order; a size that is not flagged ends the
 * range it follows.
 */
final class Ranges {

    /** One range: its sizes with the run's value, the reference's and their ratio at each. */
    record Range(List<Long> bytes, List<Double> value, List<Double> reference, List<Double> ratio) {

        long first() {
            return bytes.get(0);
        }

        /** {@code 16 MiB} or {@code 1 MiB–16 GiB}. */
        String sizes() {
            String a = SizeText.exact(bytes.get(0));
            return bytes.size() == 1 ? a : a + "–" + SizeText.exact(bytes.get(bytes.size() - 1));
        }

        String values() {
            return span(value, null);
        }

        String references() {
            return span(reference, null);
        }

        String ratios(String format) {
            return span(ratio, format);
        }

        private static String span(List<Double> v, String format) {
            double lo = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double hi = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            if (v.size() == 1) {
                return format == null ? HealthCheck.num(lo) : String.format(Locale.ROOT, format, lo);
            }
            String a = format == null ? HealthCheck.significant(lo, 3) : String.format(Locale.ROOT, format, lo);
            String b = format == null ? HealthCheck.significant(hi, 3) : String.format(Locale.ROOT, format, hi);
            return a.equals(b) ? a : a + "–" + b;
        }
    }

    private final List<Range> done = new ArrayList<>();
    private Range open;

    void add(long bytes, boolean flagged, double value, double reference, double ratio) {
        if (!flagged) {
            close();
            return;
        }
        if (open == null) {
            open = new Range(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
        open.bytes().add(bytes);
        open.value().add(value);
        open.reference().add(reference);
        open.ratio().add(ratio);
    }

    void close() {
        if (open != null) {
            done.add(new Range(List.copyOf(open.bytes()), List.copyOf(open.value()), List.copyOf(open.reference()),
                    List.copyOf(open.ratio())));
            open = null;
        }
    }

    List<Range> ranges() {
        close();
        return List.copyOf(done);
    }
}
