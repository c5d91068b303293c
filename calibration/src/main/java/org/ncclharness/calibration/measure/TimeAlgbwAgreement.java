package org.ncclharness.calibration.measure;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * Whether a table's time and algbw columns come from one timing, as nccl-tests prints them: algbw = size/time
 * (older releases print (N-1)/N of that for all_gather and reduce_scatter, so size/time is 1 to 2 times algbw, the
 * same in every row). A row outside that, or away from its own table's ratio, had its time or its algbw changed
 * after the run — scaled by hand, a unit converted, columns shifted — and the two columns tell different stories:
 * the fits read the time, the checks busbw.
 */
public final class TimeAlgbwAgreement {

    /** Slack on the ratio: algbw's 2 decimals from 0.5 GB/s up and the time's 4 digits stay within 1 %. */
    private static final double SLACK = 0.02;
    /** Below this the printed algbw's 2 decimals carry too little to compare. */
    private static final double MIN_ALGBW_GBPS = 0.5;
    /** The ratios the releases print: 1 (size/time), up to N/(N-1) = 2 for two ranks. */
    private static final double LOWEST_RATIO = 1;
    private static final double HIGHEST_RATIO = 2;
    private static final double US_PER_MS = 1e3;

    private TimeAlgbwAgreement() {
    }

    /**
     * The first disagreeing placement of a table.
     *
     * @param row          the first row where they disagree
     * @param placement    its half
     * @param fromTimeGBps size/time
     * @param printedGBps  the algbw printed
     * @param disagreeing  how many placements disagree
     * @param compared     how many placements have both columns, algbw at least 0.5 GB/s
     */
    public record Disagreement(Measurement row, Placement placement, double fromTimeGBps, double printedGBps,
                               int disagreeing, int compared) {

        /** What a reader must know, without where (the caller knows the line). */
        public String describe() {
            return String.format(Locale.ROOT, "time and algbw disagree in %d of %d placements (first: %d B %s,"
                    + " size/time %.3g GB/s against algbw %.3g GB/s); nccl-tests prints both from one timing, so"
                    + " one column was changed after the run (scaled, a unit converted, columns shifted): the fits"
                    + " read the time column, the checks busbw", disagreeing, compared, row.sizeBytes(),
                    placement.label(), fromTimeGBps, printedGBps);
        }
    }

    /** The disagreement in {@code rows}, or empty where every comparable placement agrees (or none is). */
    public static Optional<Disagreement> find(List<Measurement> rows) {
        // primitive arrays: a 100,000-size log has 200,000 placements to compare
        int[] at = new int[2 * rows.size()];
        double[] ratio = new double[2 * rows.size()];
        int n = 0;
        Placement[] halves = Placement.values();
        for (int i = 0; i < rows.size(); i++) {
            for (int p = 0; p < halves.length; p++) {
                Half h = rows.get(i).preferred(halves[p]);
                if (comparable(h)) {
                    at[n] = 2 * i + p;
                    ratio[n++] = fromTime(rows.get(i), h) / h.algBwGBps();
                }
            }
        }
        // the table's own ratio: the median of those a release prints (none: every one is off)
        double[] known = Arrays.stream(ratio, 0, n).filter(TimeAlgbwAgreement::printed).toArray();
        double median = known.length == 0 ? Double.NaN : new Median().evaluate(known);
        int first = -1;
        int off = 0;
        for (int k = 0; k < n; k++) {
            if (!printed(ratio[k]) || !(Math.abs(ratio[k] / median - 1) <= SLACK)) {
                off++;
                first = first < 0 ? k : first;
            }
        }
        if (off == 0) {
            return Optional.empty();
        }
        Measurement m = rows.get(at[first] / 2);
        Placement p = halves[at[first] % 2];
        Half h = m.preferred(p);
        return Optional.of(new Disagreement(m, p, fromTime(m, h), h.algBwGBps(), off, n));
    }

    /**
     * Whether the table's time column is in milliseconds: every placement that can be compared (algbw at least
     * 0.5 GB/s) agrees with its algbw only when its time is read as ms. NCCL 1.x's tests and nccl-tests of about
     * 2017-2019 ({@code bytes N type op time algbw busbw res}, no units line) printed ms; read as µs their sizes
     * would move at a thousand times the printed algbw.
     */
    public static boolean inMilliseconds(List<Measurement> rows) {
        int compared = 0;
        for (Measurement m : rows) {
            for (Placement p : Placement.values()) {
                Half h = m.preferred(p);
                if (comparable(h)) {
                    if (!printed(fromTime(m, h) / h.algBwGBps() / US_PER_MS)) {
                        return false;
                    }
                    compared++;
                }
            }
        }
        return compared > 0;
    }

    /** The rows with their times, printed in milliseconds, in µs. */
    public static List<Measurement> fromMilliseconds(List<Measurement> rows) {
        return rows.stream().map(m -> new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(),
                scaled(m.outOfPlace()), scaled(m.inPlace()))).toList();
    }

    private static Half scaled(Half h) {
        return h == null || h.timeUs() == null ? h : new Half(h.timeUs() * US_PER_MS, h.algBwGBps(), h.busBwGBps(),
                h.wrong(), h.maxError());
    }

    /**
     * Whether size/time over algbw is a ratio some nccl-tests release prints. Where it is not, the time column
     * was changed and the printed algbw and busbw, computed together, are the pair to read the collective from.
     */
    public static boolean printed(double ratio) {
        return ratio >= LOWEST_RATIO * (1 - SLACK) && ratio <= HIGHEST_RATIO * (1 + SLACK);
    }

    /** A placement with a time and an algbw large enough for its 2 decimals to tell a ratio. */
    private static boolean comparable(Half h) {
        return h.timeUs() != null && h.timeUs() > 0 && h.algBwGBps() != null && h.algBwGBps() >= MIN_ALGBW_GBPS;
    }

    private static double fromTime(Measurement m, Half h) {
        return m.sizeBytes() / 1e3 / h.timeUs();
    }
}
