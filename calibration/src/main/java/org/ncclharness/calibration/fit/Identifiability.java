package org.ncclharness.calibration.fit;

/**
 * What a single-tier dataset can determine, judged from the data alone.
 *
 * <ul>
 * <li>β is determined when the time at the largest size is at least {@value #BETA_TIME_RATIO}× that at the
 * smallest: the bandwidth term then carries at least half the largest time. Latency-only excerpts (a few rows
 * below 8 KiB) fail this and calibrate α only.</li>
 * <li>α is determined when busbw at the smallest size is at most {@value #ALPHA_BUSBW_RATIO} of BusBW_peak: the
 * latency then carries at least a tenth of the smallest time. Bandwidth-only excerpts (1 GiB and up) fail this
 * and calibrate β only.</li>
 * </ul>
 *
 * @param timeRatio   T(largest)/T(smallest)
 * @param busBwRatio  busbw(smallest)/busbw(largest)
 */
public record Identifiability(boolean alpha, boolean beta, double timeRatio, double busBwRatio) {

    public static final double BETA_TIME_RATIO = 2.0;
    public static final double ALPHA_BUSBW_RATIO = 0.9;

    public static Identifiability of(double[] timeUs, double[] busBwGBps) {
        int last = timeUs.length - 1;
        double tr = timeUs[last] / timeUs[0];
        double br = busBwGBps[0] / busBwGBps[last];
        return new Identifiability(br <= ALPHA_BUSBW_RATIO, tr >= BETA_TIME_RATIO, tr, br);
    }

    /** {@code alpha+beta}, {@code alpha-only}, {@code beta-only} or {@code neither}. */
    public String label() {
        if (alpha && beta) {
            return "alpha+beta";
        }
        return alpha ? "alpha-only" : beta ? "beta-only" : "neither";
    }
}
