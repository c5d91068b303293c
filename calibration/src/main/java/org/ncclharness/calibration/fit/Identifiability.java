package org.ncclharness.calibration.fit;

import java.util.List;

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
 *
 * <p>A dataset's metadata may declare it {@code latency-only} or {@code bandwidth-only} (a curator's reading of
 * the source: e.g. a run of 512 MiB and up whose small-size slope is protocol ramp-up, not latency); the
 * declaration then decides, and {@link #basis} says so.
 *
 * @param timeRatio   T(largest)/T(smallest)
 * @param busBwRatio  busbw(smallest)/busbw(largest)
 * @param basis       {@code data}, or the metadata flag that decided
 */
public record Identifiability(boolean alpha, boolean beta, double timeRatio, double busBwRatio, String basis) {

    public static final String LATENCY_ONLY = "latency-only";
    public static final String BANDWIDTH_ONLY = "bandwidth-only";

    public static final double BETA_TIME_RATIO = 2.0;
    public static final double ALPHA_BUSBW_RATIO = 0.9;

    public static Identifiability of(double[] timeUs, double[] busBwGBps) {
        int last = timeUs.length - 1;
        double tr = timeUs[last] / timeUs[0];
        double br = busBwGBps[0] / busBwGBps[last];
        return new Identifiability(br <= ALPHA_BUSBW_RATIO, tr >= BETA_TIME_RATIO, tr, br, "data");
    }

    /** The same judgement with a metadata declaration ({@code latency-only}, {@code bandwidth-only}) applied. */
    public Identifiability declared(List<String> flags) {
        if (flags.contains(BANDWIDTH_ONLY)) {
            return new Identifiability(false, true, timeRatio, busBwRatio, "metadata flag " + BANDWIDTH_ONLY);
        }
        if (flags.contains(LATENCY_ONLY)) {
            return new Identifiability(true, false, timeRatio, busBwRatio, "metadata flag " + LATENCY_ONLY);
        }
        return this;
    }

    /** The data-only judgement differs from the one used. */
    public boolean overridden(Identifiability fromData) {
        return alpha != fromData.alpha || beta != fromData.beta;
    }

    /** {@code alpha+beta}, {@code alpha-only}, {@code beta-only} or {@code neither}. */
    public String label() {
        if (alpha && beta) {
            return "alpha+beta";
        }
        return alpha ? "alpha-only" : beta ? "beta-only" : "neither";
    }
}
