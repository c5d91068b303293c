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
                if (h.timeUs() != null && h.timeUs() > 0 && h.algBwGBps() != null
                        && h.algBwGBps() >= MIN_ALGBW_GBPS) {
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
     * Whether size/time over algbw is a ratio some nccl-tests release prints. Where it is not, the time column
     * was changed and the printed algbw and busbw, computed together, are the pair to read the collective from.
     */
    public static boolean printed(double ratio) {
        return ratio >= LOWEST_RATIO * (1 - SLACK) && ratio <= HIGHEST_RATIO * (1 + SLACK);
    }

    private static double fromTime(Measurement m, Half h) {
        return m.sizeBytes() / 1e3 / h.timeUs();
    }
}
