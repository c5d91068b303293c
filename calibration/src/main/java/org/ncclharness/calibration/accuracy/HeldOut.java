package org.ncclharness.calibration.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.fit.envelope.Carrier;
import org.ncclharness.calibration.model.CostModel;

/**
 * Scores a model on points it was not fitted on, the way the model is used: interleaved (fit every other size,
 * predict the rest), extrapolation (fit sizes ≤ 256 MiB, predict the larger ones), cross-scale (fit one
 * configuration, predict another). A split whose fitting half has fewer than 2k points (k free parameters, at
 * least 2) is not scored, and says so.
 */
public final class HeldOut {

    /** The extrapolation split: fit on sizes up to this, predict above it. */
    public static final double EXTRAPOLATION_LIMIT_BYTES = 256.0 * (1 << 20);

    private HeldOut() {
    }

    /**
     * A held-out score, or why there is none; on a split of one run also its {@link End}, null where there is no
     * fitting half of the same run (cross-scale) or no score.
     */
    public record Score(Rmspe rmspe, String reason, End end) {
        public Score(Rmspe rmspe, String reason) {
            this(rmspe, reason, null);
        }

        static Score none(String reason) {
            return new Score(null, reason);
        }

        static Score of(CostModel m, double[] theta, FitPoints test) {
            return of(m, theta, test, null);
        }

        /** Scored on {@code test}, with its {@link End} where {@code fitted} (the half fitted on) is given. */
        static Score of(CostModel m, double[] theta, FitPoints test, FitPoints fitted) {
            double[] predicted = new double[test.size()];
            for (int i = 0; i < predicted.length; i++) {
                predicted[i] = m.timeUs(test.bytes()[i], theta);
            }
            End end = fitted == null ? null : End.of(fitted, test, predicted,
                    Carrier.of(m, test.bytes()[test.size() - 1], theta).map(Carrier::label).orElse(null));
            return new Score(Rmspe.of(test.bytes(), test.timeUs(), predicted), null, end);
        }

        public boolean scored() {
            return rmspe != null;
        }

        public double pct() {
            return rmspe.overallPct().orElseThrow();
        }
    }

    public static int minimumFitPoints(Estimator e) {
        return Math.max(2, 2 * e.freeParameters().size());
    }

    public static Score interleaved(Estimator e, FitPoints p) {
        return split(e, p, i -> i % 2 == 0, "interleaved");
    }

    public static Score extrapolation(Estimator e, FitPoints p) {
        double[] b = p.bytes();
        return split(e, p, i -> b[i] <= EXTRAPOLATION_LIMIT_BYTES, "extrapolation");
    }

    private static Score split(Estimator e, FitPoints p, IntPredicate fitOn, String what) {
        List<Integer> fit = new ArrayList<>();
        List<Integer> test = new ArrayList<>();
        for (int i = 0; i < p.size(); i++) {
            (fitOn.test(i) ? fit : test).add(i);
        }
        if (test.isEmpty()) {
            return Score.none("no point to predict (" + what + ")");
        }
        if (fit.size() < minimumFitPoints(e)) {
            return Score.none(fit.size() + " points to fit, " + minimumFitPoints(e) + " needed");
        }
        FitPoints fitted = subset(p, fit);
        double[] theta = e.estimate(fitted);
        return Score.of(e.model(), theta, subset(p, test), fitted);
    }

    /**
     * Why a split's prediction misses, read at its largest predicted size: the busbw measured there against the
     * largest the fitted sizes measured, and the model's busbw there. A model slower than the measurement where the
     * busbw rose past the fitted sizes' is one whose sizes never showed the bandwidth the run reached; one faster
     * has an asymptote above what was measured.
     *
     * @param largestBytes       the largest predicted size
     * @param fittedBusBwGBps    the largest busbw among the sizes fitted
     * @param measuredBusBwGBps  the busbw measured at the largest predicted size
     * @param predictedBusBwGBps the model's busbw there (busbw scales as 1/T at one size)
     * @param carrier            what carries that size on a fitted envelope ({@code LL128}, {@code Tree/Simple}),
     *                           null for any other model
     */
    public record End(double largestBytes, double fittedBusBwGBps, double measuredBusBwGBps,
                      double predictedBusBwGBps, String carrier) {

        static End of(FitPoints fitted, FitPoints test, double[] predictedUs, String carrier) {
            int last = test.size() - 1;
            double measured = test.busBwGBps()[last];
            double fittedMax = Arrays.stream(fitted.busBwGBps()).max().orElse(Double.NaN);
            return new End(test.bytes()[last], fittedMax, measured,
                    measured * test.timeUs()[last] / predictedUs[last], carrier);
        }

        /** The model moves the largest size slower than measured. */
        public boolean tooSlow() {
            return predictedBusBwGBps < measuredBusBwGBps;
        }
    }

    /**
     * Cross-scale: θ estimated on one configuration's points, the model moved to another configuration by
     * {@code moveTo}, scored on that configuration's points.
     */
    public static Score crossScale(Estimator e, FitPoints fitOn, UnaryOperator<CostModel> moveTo, FitPoints predict) {
        if (fitOn.size() < minimumFitPoints(e)) {
            return Score.none(fitOn.size() + " points to fit, " + minimumFitPoints(e) + " needed");
        }
        return Score.of(moveTo.apply(e.model()), e.estimate(fitOn), predict);
    }

    static FitPoints subset(FitPoints p, List<Integer> idx) {
        double[] b = new double[idx.size()];
        double[] t = new double[idx.size()];
        double[] bw = new double[idx.size()];
        for (int j = 0; j < idx.size(); j++) {
            b[j] = p.bytes()[idx.get(j)];
            t[j] = p.timeUs()[idx.get(j)];
            bw[j] = p.busBwGBps()[idx.get(j)];
        }
        return new FitPoints(b, t, bw, p.placement(), p.timeDerived(), p.notes());
    }
}
