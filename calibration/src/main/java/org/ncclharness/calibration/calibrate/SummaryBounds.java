package org.ncclharness.calibration.calibrate;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.distribution.TDistribution;
import org.ncclharness.calibration.fit.Identifiability;
import org.ncclharness.calibration.fit.twotier.ConfigSummary;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.fit.twotier.TwoTierRun;

/**
 * What a summary row may show of its model's two limits, judged by the model against its own error (the score the
 * row shows, ε): a limit is a number only where the sizes measured pin it down.
 *
 * <p>Near the sizes fitted every model is a line, T(M) ≈ α + s·M, and each size's time is known to ε·T(M). The line
 * through those sizes, weighted so, has standard errors σ_α and σ_s (weighted least squares, w = 1/(ε·T(M))²); a
 * limit is reached where it stands clear of zero by t·σ, t the two-sided {@value #CONFIDENCE} quantile of Student's t
 * with n − 2 degrees of freedom (2.05 for 30 sizes, 12.7 for three: a line through three sizes pins little):
 * Before that, the sizes themselves must reach the limit ({@link Identifiability}, the same rule for every family):
 * α only where the smallest size sits on the latency plateau ({@link Identifiability#alphaReached}), the busbw only
 * where the bandwidth term carries the largest time ({@link Identifiability#beta}), each as a dataset's metadata
 * may declare ({@code bandwidth-only}, {@code latency-only}).
 * <ul>
 *   <li>α, the time as M → 0, where α ≥ t·σ_α. Sizes that start at 4 GiB leave α a small share of every time and
 *       an extrapolation far below the data: σ_α grows with both (a latency share under ε is always below it).</li>
 *   <li>The busbw as M → ∞, where the slope (T(M_max) − α)/M_max is ≥ t·σ_s: a latency-only run leaves it
 *       open.</li>
 *   <li>A busbw shown may still stand above the largest busbw measured by more than ε (the model extrapolates
 *       beyond every size: flag X) or above the line rate of the hardware facts where no measured size passed it
 *       (flag L).</li>
 * </ul>
 *
 * @param alphaReached   α may be shown
 * @param busBwReached   the busbw may be shown
 * @param aboveMeasured  the busbw shown exceeds the largest measured busbw by more than the fit's error
 * @param aboveLineRate  the busbw shown exceeds the line rate, which no measured size did
 */
public record SummaryBounds(boolean alphaReached, boolean busBwReached, boolean aboveMeasured, boolean aboveLineRate) {

    /** The two-sided confidence a limit is shown at. */
    static final double CONFIDENCE = 0.95;

    /**
     * @param reach                    what the measured sizes (and the metadata) reach
     * @param timeUs                   the model's time at a size (bytes), at the configuration the row shows
     * @param sizes                    the sizes fitted, bytes
     * @param errorPct                 the row's score in % (NaN or 0: no score, nothing is held back for it)
     * @param busBwGBps                the busbw the row would show, null where it shows none
     * @param largestMeasuredBusBwGBps the highest busbw measured
     * @param lineRateGBps             the line rate where the hardware facts give one and no measured size passed
     *                                 it, else null
     */
    static SummaryBounds of(Identifiability reach, DoubleUnaryOperator timeUs, double[] sizes, double errorPct,
                            Double busBwGBps, double largestMeasuredBusBwGBps, Double lineRateGBps) {
        double error = Double.isFinite(errorPct) ? errorPct / 100 : 0;
        double alpha = timeUs.applyAsDouble(0);
        double largest = java.util.Arrays.stream(sizes).max().orElse(0);
        double slope = largest > 0 ? (timeUs.applyAsDouble(largest) - alpha) / largest : 0;
        // Σw, Σw·M, Σw·M² of the weighted line; sizes scaled to GiB so the sums stay well inside a double
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        for (double m : sizes) {
            double sigma = error * timeUs.applyAsDouble(m);
            double w = 1 / (sigma * sigma);
            double g = m / GIB;
            s0 += w;
            s1 += w * g;
            s2 += w * g * g;
        }
        double det = s0 * s2 - s1 * s1;
        boolean exact = error == 0;
        Quantile t = new Quantile(sizes.length - 2);
        boolean alphaReached = reach.alphaReached() && (exact || det > 0 && t.clear(alpha, Math.sqrt(s2 / det)));
        boolean busBwReached = reach.beta() && (exact || det > 0 && t.clear(slope * GIB, Math.sqrt(s0 / det)));
        boolean shown = busBwGBps != null && busBwReached;
        return new SummaryBounds(alphaReached, busBwReached,
                shown && busBwGBps > largestMeasuredBusBwGBps * (1 + error),
                shown && lineRateGBps != null && busBwGBps > lineRateGBps);
    }

    /**
     * The bounds of a two-tier form at one configuration of its entry, judged on the run at that configuration:
     * both forms are one line there, T(M) = α + f·M/busbw.
     */
    public static SummaryBounds of(TwoTierCalibration t, TwoTierFit form, ConfigSummary at) {
        double f = t.collective().busFactor(at.config().ranks());
        TwoTierRun run = t.runs().stream().filter(r -> r.config().equals(at.config())).findFirst()
                .orElse(t.runs().get(0));
        return of(reach(t, run), m -> at.latencySumUs() + f * m / (at.busBwAsymptoteGBps() * 1e3), run.bytes(),
                form.comparisonPct(), at.busBwAsymptoteGBps(), largestMeasuredBusBw(t),
                t.busBwAboveNetworkLineRateGBps().isPresent() ? null : t.busBwCeilingGBps());
    }

    /** The highest busbw any run of the entry measured. */
    static double largestMeasuredBusBw(TwoTierCalibration t) {
        double most = 0;
        for (TwoTierRun r : t.runs()) {
            double[] b = r.bytes();
            double[] us = r.timeUs();
            for (int i = 0; i < b.length; i++) {
                most = Math.max(most, t.collective().busBwGBps(b[i], us[i], r.config().ranks()));
            }
        }
        return most;
    }

    /**
     * What one run of a multi-domain entry reaches: its measured times and busbw by size, with the entry's metadata
     * declarations (a joint entry: any member's).
     */
    static Identifiability reach(TwoTierCalibration t, TwoTierRun run) {
        Integer[] order = new Integer[run.bytes().length];
        java.util.Arrays.setAll(order, i -> i);
        java.util.Arrays.sort(order, java.util.Comparator.comparingDouble(i -> run.bytes()[i]));
        double[] timeUs = new double[order.length];
        double[] busBw = new double[order.length];
        for (int k = 0; k < order.length; k++) {
            int i = order[k];
            timeUs[k] = run.timeUs()[i];
            busBw[k] = t.collective().busBwGBps(run.bytes()[i], run.timeUs()[i], run.config().ranks());
        }
        return Identifiability.of(timeUs, busBw).declared(t.dataset().flags());
    }

    private static final double GIB = 1L << 30;

    /**
     * Whether a value stands clear of zero by t·σ, t computed only where the answer depends on it: Student's t at
     * {@value #CONFIDENCE} two-sided lies between the normal's 1.95996 (df → ∞) and 12.7062 (df = 1), so a value
     * above {@value #T_ABOVE}·σ is clear and one below {@value #T_BELOW}·σ is not, whatever the degrees of freedom.
     * The quantile itself (Commons Math's, solved to 1e-9) is the first use of its distributions, special functions
     * and solver, about 20 ms of a one-run calibrate's CPU (issue 43), for a decision the band mostly settles.
     */
    static final class Quantile {
        static final double T_BELOW = 1.95;
        static final double T_ABOVE = 12.71;
        private final int degreesOfFreedom;
        private double t = Double.NaN;

        /** @param degreesOfFreedom n − 2; none (two sizes or fewer) leaves a line no freedom to show its error */
        Quantile(int degreesOfFreedom) {
            this.degreesOfFreedom = degreesOfFreedom;
        }

        /** value ≥ t·σ, as if t were computed first. */
        boolean clear(double value, double sigma) {
            if (degreesOfFreedom > 0 && value >= T_ABOVE * sigma) {
                return true;
            }
            if (degreesOfFreedom > 0 && value < T_BELOW * sigma) {
                return false;
            }
            return value >= t() * sigma;
        }

        double t() {
            if (Double.isNaN(t)) {
                // nothing is pinned without a degree of freedom
                t = degreesOfFreedom > 0 ? new TDistribution(null, degreesOfFreedom)
                        .inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2) : Double.POSITIVE_INFINITY;
            }
            return t;
        }
    }
}
