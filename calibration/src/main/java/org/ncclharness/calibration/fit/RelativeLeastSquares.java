package org.ncclharness.calibration.fit;

import java.util.List;
import org.apache.commons.math3.exception.MathIllegalStateException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.ncclharness.calibration.model.ParametricTime;

/**
 * Least squares on relative error, Σ((T(M_i; θ) − T_i)/T_i)², over the free components of θ, by Commons Math's
 * Levenberg–Marquardt. Relative error because nccl-tests sizes span ten decades: absolute error would let the
 * largest sizes decide everything and make the latency meaningless. The model, the problem and the optimiser are
 * separate (Commons Math's design), so another model or optimiser plugs in unchanged.
 */
public final class RelativeLeastSquares {

    /**
     * A start not settled by then is wandering along a flat ridge of a piecewise model (the envelopes): the
     * multi-start fits skip it. Every bundled fit settles well inside (docs/model-accuracy.md is the same to the
     * digit at 10,000), and the ridge-walkers no longer cost five times the fit itself.
     */
    private static final int MAX_EVALUATIONS = 2_000;

    private RelativeLeastSquares() {
    }

    /**
     * @param start  θ to start from; the fixed components are kept as they are
     * @param free   which components the optimiser may move
     * @param bounds bounds per component (a moved component is put back within them)
     * @return θ at the optimum
     */
    public static double[] fit(ParametricTime model, double[] start, boolean[] free, Bounds bounds, FitPoints points) {
        return fit(List.of(model), List.of(points), start, free, bounds);
    }

    /**
     * One θ for several runs at once (a joint fit across configurations): run r's points are predicted by
     * {@code models.get(r)}, every point weighs the same.
     *
     * @param start  θ to start from; the fixed components are kept as they are
     * @param free   which components the optimiser may move
     * @param bounds bounds per component (a moved component is put back within them)
     * @return θ at the optimum
     */
    public static double[] fit(List<? extends ParametricTime> models, List<FitPoints> points, double[] start,
                               boolean[] free, Bounds bounds) {
        if (models.size() != points.size()) {
            throw new IllegalArgumentException(models.size() + " models for " + points.size() + " runs");
        }
        int[] idx = freeIndices(free);
        if (idx.length == 0) {
            return start.clone();
        }
        RelativeProblem problem = new RelativeProblem(models, points, start, idx, bounds, MAX_EVALUATIONS);
        LeastSquaresOptimizer.Optimum optimum = new LevenbergMarquardtOptimizer().optimize(problem);
        return problem.theta(optimum.getPoint().toArray());
    }

    /** Above this many points in all, the starts are compared on an evenly thinned subset. */
    public static final int MULTI_START_POINTS = 500;

    /**
     * The best of several starts: each fitted, the lowest {@link #cost} kept; a start that runs out of evaluations
     * (wandering along a flat ridge of a piecewise model) or whose Jacobian loses its rank is skipped. Above {@value #MULTI_START_POINTS} points the
     * starts race on every s-th point of each run (s the smallest stride that brings the total under the limit), and
     * the winner is refitted once on all points: the starts only choose the basin, so a 10,000-size log costs one
     * full fit rather than one per start. At or below the limit every start fits every point.
     *
     * @return θ at the best optimum, null when every start failed
     */
    public static double[] bestOf(List<? extends ParametricTime> models, List<FitPoints> points, List<double[]> starts,
                                  boolean[] free, Bounds bounds) {
        int n = points.stream().mapToInt(FitPoints::size).sum();
        int stride = (n + MULTI_START_POINTS - 1) / MULTI_START_POINTS;
        List<FitPoints> race = stride <= 1 ? points
                : points.stream().map(p -> p.keep(i -> i % stride == 0)).toList();
        double[] best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (double[] theta0 : starts) {
            double[] theta;
            try {
                theta = fit(models, race, theta0, free, bounds);
            } catch (MathIllegalStateException e) {
                continue; // out of evaluations, or a Jacobian that lost its rank (times spanning 1e-300 to 1e3)
            }
            double c = cost(models, race, theta);
            if (c < bestCost) {
                bestCost = c;
                best = theta;
            }
        }
        if (best == null || stride <= 1) {
            return best;
        }
        try {
            return fit(models, points, best, free, bounds);
        } catch (MathIllegalStateException e) {
            return best;
        }
    }

    /** Σ((T(M_i; θ) − T_i)/T_i)² over runs: what {@link #fit} minimises; +∞ where θ gives no finite time. */
    public static double cost(List<? extends ParametricTime> models, List<FitPoints> points, double[] theta) {
        double s = 0;
        for (int r = 0; r < models.size(); r++) {
            double[] t = points.get(r).timeUs();
            double[] value = new double[t.length];
            models.get(r).timesUs(points.get(r).bytes(), theta, value);
            for (int i = 0; i < t.length; i++) {
                double e = value[i] / t[i] - 1;
                s += e * e;
            }
        }
        return Double.isFinite(s) ? s : Double.POSITIVE_INFINITY;
    }

    private static int[] freeIndices(boolean[] free) {
        int n = 0;
        for (boolean b : free) {
            n += b ? 1 : 0;
        }
        int[] idx = new int[n];
        for (int i = 0, k = 0; i < free.length; i++) {
            if (free[i]) {
                idx[k++] = i;
            }
        }
        return idx;
    }
}
