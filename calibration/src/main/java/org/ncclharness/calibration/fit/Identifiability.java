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
 * <p>What an output may show of the model's limits is stricter for α ({@link #alphaReached}): a time as M → 0 is
 * the sizes' only where they reach the latency plateau, busbw at the smallest size at most
 * {@value #ALPHA_REACHED_BUSBW_RATIO} of that at the largest, so the latency carries at least 90 % of the smallest
 * time and α is nearly a measured time. Above that the line's intercept is read across sizes NCCL never ran: the
 * protocol (LL) and algorithm (Tree, NVLS) it picks for small messages, and the channels it ramps up with size,
 * are not those of the sweep (a 1440-GPU GB200 run from 512 MiB up, busbw there 37 % of its largest, fits a
 * 4674 µs intercept that is the ring's 2(N−1) steps, not the time of a small AllReduce). The fits keep
 * {@link #alpha} (they may fit an intercept to describe the sizes they have); the outputs show it only when reached.
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
    /** busbw(smallest)/busbw(largest) at most this: the sizes reach the latency plateau ({@link #alphaReached}). */
    public static final double ALPHA_REACHED_BUSBW_RATIO = 0.1;

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

    /**
     * The sizes reach α, the time as M → 0, so an output may show it: α is calibrated and the smallest size sits on
     * the latency plateau (busbw there at most {@value #ALPHA_REACHED_BUSBW_RATIO} of the largest size's).
     */
    public boolean alphaReached() {
        return alpha && busBwRatio <= ALPHA_REACHED_BUSBW_RATIO;
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
