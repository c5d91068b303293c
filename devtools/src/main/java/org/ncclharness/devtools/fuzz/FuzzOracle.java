package org.ncclharness.devtools.fuzz;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Judges what the readers made of one fuzz case. The rule: the rows read equal the rows the text still holds,
 * else the refusal (an {@link InputException}, exit 2) names a damaged row's line. Anything else is a defect: any
 * other exception, a damaged row read silently or dropped, a refusal naming the wrong line.
 */
public final class FuzzOracle {

    /** How a case came out. */
    public enum Verdict { PARSED_EXACTLY, CLEAN_REFUSAL, DEFECT }

    /**
     * @param silentDrop a defect in which the damaged row simply vanished from what was read
     * @param detail     for a defect, what went wrong
     */
    public record Outcome(String kind, Verdict verdict, boolean silentDrop, String detail) { }

    private FuzzOracle() {
    }

    public static Outcome judge(Mutation.Case c, List<Measurement> original) {
        List<Measurement> read;
        try {
            read = rows(Inputs.parse("fuzz.txt", c.text()));
        } catch (InputException e) {
            if (DocumentOracle.JAVA_NAME.matcher(e.getMessage()).find()) {
                return defect(c, false, "a Java name in: " + e.getMessage());
            }
            boolean named = c.kind().damages() ? e.line() == c.damagedLine()
                    // a row broken inside a token is damaged on both its lines
                    || c.kind() == Mutation.SPLIT_MID_TOKEN && e.line() == c.damagedLine() + 1
                    : c.kind() == Mutation.TRUNCATE_TEXT && (e.line() == lineCount(c.text())
                    || e.line() == 0 && c.rows().isEmpty());
            return named ? new Outcome(c.kind().name(), Verdict.CLEAN_REFUSAL, false, null)
                    : defect(c, false, "refused at line " + e.line() + " where "
                            + (c.kind().damages() ? "line " + c.damagedLine() + " is damaged" : "nothing is damaged")
                            + ": " + e.getMessage());
        } catch (RuntimeException e) {
            return defect(c, false, e.toString());
        }
        if (c.kind().damages()) {
            boolean dropped = read.size() == original.size() - 1;
            return defect(c, dropped, "read " + read.size() + " rows without a word for the damage at line "
                    + c.damagedLine());
        }
        if (c.kind() == Mutation.TRUNCATE_TEXT) {
            return truncated(c, read);
        }
        return read.equals(c.rows()) ? new Outcome(c.kind().name(), Verdict.PARSED_EXACTLY, false, null)
                : defect(c, read.size() < c.rows().size(), "read " + read.size() + " rows, the text holds "
                        + c.rows().size() + (read.size() == c.rows().size() ? " (values differ)" : ""));
    }

    /** Earlier rows exactly; the cut row absent, or present with only values it really has. */
    private static Outcome truncated(Mutation.Case c, List<Measurement> read) {
        int n = c.rows().size();
        if (read.size() < n || !read.subList(0, n).equals(c.rows())) {
            return defect(c, read.size() < n, "the rows before the cut are not read exactly");
        }
        if (read.size() == n) {
            return new Outcome(c.kind().name(), Verdict.PARSED_EXACTLY, false, null);
        }
        Measurement kept = read.get(n);
        Measurement whole = c.cutRow();
        boolean subset = read.size() == n + 1 && kept.sizeBytes() == whole.sizeBytes() && kept.count() == whole.count()
                && within(kept.outOfPlace(), whole.outOfPlace()) && within(kept.inPlace(), whole.inPlace());
        return subset ? new Outcome(c.kind().name(), Verdict.PARSED_EXACTLY, false, null)
                : defect(c, false, "the cut row was kept with values it does not have: " + kept);
    }

    private static boolean within(Half kept, Half whole) {
        return same(kept.timeUs(), whole.timeUs()) && same(kept.algBwGBps(), whole.algBwGBps())
                && same(kept.busBwGBps(), whole.busBwGBps()) && same(kept.wrong(), whole.wrong())
                && same(kept.maxError(), whole.maxError());
    }

    private static boolean same(Double kept, Double whole) {
        return kept == null || kept.equals(whole);
    }

    private static int lineCount(String text) {
        return (int) text.lines().count();
    }

    private static Outcome defect(Mutation.Case c, boolean silentDrop, String detail) {
        return new Outcome(c.kind().name(), Verdict.DEFECT, silentDrop, detail);
    }

    private static List<Measurement> rows(List<Sweep> sweeps) {
        List<Measurement> out = new ArrayList<>();
        sweeps.forEach(s -> out.addAll(s.rows()));
        return out;
    }
}
