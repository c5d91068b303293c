package org.ncclharness.calibration.fit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.model.ParametricTime;

/**
 * Where a multi-start estimator's fits start ({@link RelativeLeastSquares#bestOf}), stage by stage (an envelope
 * fits with β pinned first, then with β free where the pinned fit does not hold).
 *
 * <p>{@link #FRESH}: from the starts the estimator derives from the points. {@link #recording}: the same, keeping
 * the distinct optima each stage's starts reached. {@link Recording#reached}: the leave-one-out refits of those
 * points start from those optima alone. A refit without one point lies near one of the optima the starts reached
 * with it: in the same basin, or in another the full fit also found (the held-out point can move the best basin,
 * which is why every distinct optimum is kept and not only the best). Measured on every bundled run, not assumed:
 * LeaveOneOutFromOptimaTest holds every refit's optimum and every leave-one-out RMSPE to the fresh starts'. A stage
 * the full fit never reached (a refit whose pinned fit no longer holds) starts fresh.
 */
public interface Basins {

    /** Fits from the starts the estimator derives. */
    Basins FRESH = new Fresh();

    /** Two optima are the same where their costs differ by at most this, relative. */
    double SAME_COST = 1e-9;
    /** ... and each parameter by at most this, relative (absolute below 1e-12). */
    double SAME_PARAMETER = 1e-6;

    /**
     * The best of a stage's starts.
     *
     * @param stage  which of the estimator's multi-start fits this is
     * @param starts the starts the estimator derives from these points; the fixed components of the first are those
     *               of every start the estimator derives, and of every start this takes
     */
    double[] bestOf(String stage, List<? extends ParametricTime> models, List<FitPoints> points,
                    List<double[]> starts, boolean[] free, Bounds bounds);

    /** Fits from fresh starts, recording what each stage reached. */
    static Recording recording() {
        return new Recording();
    }

    /** Fits from the starts the estimator derives. */
    final class Fresh implements Basins {
        private Fresh() {
        }

        @Override
        public double[] bestOf(String stage, List<? extends ParametricTime> models, List<FitPoints> points,
                               List<double[]> starts, boolean[] free, Bounds bounds) {
            return RelativeLeastSquares.bestOf(models, points, starts, free, bounds);
        }
    }

    /**
     * A stage's starts and the distinct optima they reached.
     *
     * @param starts   how many starts the stage tried
     * @param optima   the distinct optima (finite cost), lowest cost first
     */
    record Stage(int starts, List<double[]> optima) {
    }

    /** Fits from fresh starts, keeping the distinct optima each stage reached (one thread: not shared). */
    final class Recording implements Basins {
        private final Map<String, Stage> stages = new LinkedHashMap<>();

        private Recording() {
        }

        @Override
        public double[] bestOf(String stage, List<? extends ParametricTime> models, List<FitPoints> points,
                               List<double[]> starts, boolean[] free, Bounds bounds) {
            RelativeLeastSquares.MultiStart m = RelativeLeastSquares.multiStart(models, points, starts, free, bounds);
            stages.put(stage, new Stage(starts.size(), distinct(m.endpoints(), free)));
            return m.best();
        }

        /** What each stage fitted so far reached, in the order the stages ran. */
        public Map<String, Stage> stages() {
            return Collections.unmodifiableMap(stages);
        }

        /** Fits that start from the optima recorded so far, stage by stage. */
        public Basins reached() {
            return new Reached(Map.copyOf(stages));
        }
    }

    /** Fits that start each recorded stage from its optima, and any other fresh. */
    final class Reached implements Basins {
        private final Map<String, Stage> stages;

        private Reached(Map<String, Stage> stages) {
            this.stages = stages;
        }

        @Override
        public double[] bestOf(String stage, List<? extends ParametricTime> models, List<FitPoints> points,
                               List<double[]> starts, boolean[] free, Bounds bounds) {
            Stage s = stages.get(stage);
            if (s == null || s.optima().isEmpty() || starts.isEmpty()) {
                return RelativeLeastSquares.bestOf(models, points, starts, free, bounds);
            }
            // free components from the optimum; fixed ones (a pinned β) as this refit derives them
            double[] fixed = starts.get(0);
            List<double[]> from = s.optima().stream().map(o -> {
                double[] x = fixed.clone();
                for (int j = 0; j < x.length; j++) {
                    x[j] = free[j] ? o[j] : x[j];
                }
                return x;
            }).toList();
            double was = RelativeLeastSquares.STEP_BOUND.get();
            RelativeLeastSquares.STEP_BOUND.set(LOCAL_STEP);
            try {
                return RelativeLeastSquares.bestOf(models, points, from, free, bounds);
            } finally {
                RelativeLeastSquares.STEP_BOUND.set(was);
            }
        }
    }

    /** Experiment: the initial step bound of a refit from an optimum. */
    double LOCAL_STEP = Double.parseDouble(System.getenv().getOrDefault("LOO_STEP", "100"));

    /** The endpoints of finite cost, one of each optimum (the lowest-cost, first reached), lowest cost first. */
    static List<double[]> distinct(List<RelativeLeastSquares.Endpoint> endpoints, boolean[] free) {
        List<RelativeLeastSquares.Endpoint> sorted = endpoints.stream().filter(e -> Double.isFinite(e.cost()))
                .sorted(Comparator.comparingDouble(RelativeLeastSquares.Endpoint::cost)).toList();
        List<RelativeLeastSquares.Endpoint> kept = new ArrayList<>();
        for (RelativeLeastSquares.Endpoint e : sorted) {
            if (kept.stream().noneMatch(k -> same(k, e, free))) {
                kept.add(e);
            }
        }
        return kept.stream().map(RelativeLeastSquares.Endpoint::theta).toList();
    }

    private static boolean same(RelativeLeastSquares.Endpoint a, RelativeLeastSquares.Endpoint b, boolean[] free) {
        if (!close(a.cost(), b.cost(), SAME_COST)) {
            return false;
        }
        for (int j = 0; j < free.length; j++) {
            if (free[j] && !close(a.theta()[j], b.theta()[j], SAME_PARAMETER)) {
                return false;
            }
        }
        return true;
    }

    private static boolean close(double x, double y, double relative) {
        return Math.abs(x - y) <= Math.max(relative * Math.max(Math.abs(x), Math.abs(y)), 1e-12);
    }
}
