package org.ncclharness.calibration.fit;

import java.util.Arrays;

/**
 * Per-component bounds of θ for {@link RelativeLeastSquares}: a component the optimiser moves past one is put back
 * on it. Most parameters have only a floor (a latency, a bandwidth, a share is never negative); a share that the
 * system's own algorithm caps also has a ceiling.
 *
 * @param lower floor per component
 * @param upper ceiling per component, +∞ where none
 */
public record Bounds(double[] lower, double[] upper) {

    public Bounds {
        if (lower.length != upper.length) {
            throw new IllegalArgumentException(lower.length + " floors for " + upper.length + " ceilings");
        }
        lower = lower.clone();
        upper = upper.clone();
    }

    /** Floors only. */
    public static Bounds below(double[] lower) {
        double[] upper = new double[lower.length];
        Arrays.fill(upper, Double.POSITIVE_INFINITY);
        return new Bounds(lower, upper);
    }

    /** These bounds with component {@code i} also at most {@code max}. */
    public Bounds withCeiling(int i, double max) {
        double[] u = upper.clone();
        u[i] = max;
        return new Bounds(lower, u);
    }

    /** {@code value} put within component {@code i}'s bounds. */
    public double clamp(int i, double value) {
        return Math.min(Math.max(value, lower[i]), upper[i]);
    }
}
