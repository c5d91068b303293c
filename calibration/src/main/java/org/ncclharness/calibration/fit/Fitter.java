package org.ncclharness.calibration.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Turns an {@link Estimator} and points into a {@link Fit}: θ on all points, residuals, RMSPE in-sample, and
 * leave-one-out RMSPE where the data has enough points for the estimator's k free parameters (at least 3k + 3;
 * a smaller dataset says so instead). Above {@value #EXACT_LEAVE_ONE_OUT_MAX} points it is estimated by
 * interleaved {@value #FOLDS}-fold cross-validation, each fold fitted on at most about
 * {@value #FOLD_TRAINING_MAX} of its training points, and the fit's note says so.
 */
public final class Fitter {

    /** Above this many points leave-one-out is estimated by {@value #FOLDS}-fold cross-validation. */
    public static final int EXACT_LEAVE_ONE_OUT_MAX = 100;
    public static final int FOLDS = 10;
    /**
     * Above this many training points a fold is fitted on every s-th of them (s the smallest stride that brings
     * them under it): an even subsample keeps the sizes' spread, and a fold of 2,000 points scores a model as one
     * of 90,000 does while costing a 50th of it.
     */
    public static final int FOLD_TRAINING_MAX = 2000;

    private Fitter() {
    }

    /** The minimum number of points leave-one-out needs for k free parameters. */
    public static int leaveOneOutMinimum(int k) {
        return 3 * k + 3;
    }

    /** The leave-one-out refits a fit of n points with k free parameters makes. */
    public static int refits(int n, int k) {
        return n < leaveOneOutMinimum(k) ? 0 : n > EXACT_LEAVE_ONE_OUT_MAX ? FOLDS : n;
    }

    /**
     * Whether the out-of-sample RMSPE of a least-squares fit of n points is at least its in-sample RMSPE: true of
     * leave-one-out and of folds fitted on all their other points, not where a fold is thinned ({@link #foldStride}).
     */
    public static boolean boundedByInSample(int n) {
        return n <= EXACT_LEAVE_ONE_OUT_MAX || foldStride(n) == 1;
    }

    /** The stride that thins a fold's training points of n under {@link #FOLD_TRAINING_MAX}: 1 for none. */
    static int foldStride(int n) {
        int training = n - n / FOLDS;
        return (training + FOLD_TRAINING_MAX - 1) / FOLD_TRAINING_MAX;
    }

    /** Fold f's training points (every size not in it), every stride-th of them. */
    private static FitPoints training(FitPoints points, int f, int stride) {
        boolean[] keep = new boolean[points.size()];
        for (int i = 0, j = 0; i < keep.length; i++) {
            if (i % FOLDS != f) {
                keep[i] = j++ % stride == 0;
            }
        }
        return points.keep(i -> keep[i]);
    }

    public static Fit fit(Estimator e, FitPoints points, List<String> marks) {
        return fit(e, points, marks, FitProgress.NONE);
    }

    /**
     * As {@link #fit(Estimator, FitPoints, List)}, telling {@code progress} of every leave-one-out refit (the caller
     * announces them, {@link #refits}, so a bar knows its end before the first fit).
     */
    public static Fit fit(Estimator e, FitPoints points, List<String> marks, FitProgress progress) {
        return scored(inSample(e, points, marks), e, points, progress);
    }

    /**
     * θ on all points, the residuals and the in-sample RMSPE; leave-one-out is left to {@link #scored} (a fit with the
     * points for it and none is {@link Fit#leaveOneOutSkipped}), or noted as not scored where the points are too few.
     */
    public static Fit inSample(Estimator e, FitPoints points, List<String> marks) {
        double[] theta = e.estimate(points);
        int n = points.size();
        double[] bytes = points.bytes();
        double[] measured = points.timeUs();
        double[] predicted = new double[n];
        List<Residual> residuals = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            predicted[i] = e.model().timeUs(bytes[i], theta);
            residuals.add(Residual.of(bytes[i], measured[i], predicted[i]));
        }
        Rmspe inSample = Rmspe.of(bytes, measured, predicted);
        int k = e.freeParameters().size();
        int min = leaveOneOutMinimum(k);
        String looNote = n >= min ? null : "not scored: " + k + " free parameter" + (k == 1 ? "" : "s")
                + " need at least " + min + " points, the data has " + n;
        return new Fit(e.name(), e.description(), e.model(), theta, e.freeParameters(), residuals, inSample, null,
                looNote, marks, List.of());
    }

    /**
     * {@code fit} ({@link #inSample} of {@code e} on {@code points}) with its leave-one-out RMSPE, by the estimator's
     * closed form where it has one, else by refits; as it was where the points are too few.
     */
    public static Fit scored(Fit fit, Estimator e, FitPoints points, FitProgress progress) {
        int n = points.size();
        if (n < leaveOneOutMinimum(e.freeParameters().size())) {
            return fit;
        }
        double[] bytes = points.bytes();
        double[] measured = points.timeUs();
        if (n > EXACT_LEAVE_ONE_OUT_MAX) {
            // n refits of n points cost n^2 (10,000 sizes: over 5 minutes); interleaved folds keep "each point
            // predicted by a fit without it" at FOLDS refits, and with this many points the two barely differ.
            double[] held = new double[n];
            int stride = foldStride(n);
            IntStream.range(0, FOLDS).parallel().forEach(f -> {
                double[] th = e.estimate(training(points, f, stride));
                for (int i = f; i < n; i += FOLDS) {
                    held[i] = e.model().timeUs(bytes[i], th);
                }
                progress.refitted();
            });
            return fit.withLeaveOneOut(Rmspe.of(bytes, measured, held), "estimated by " + FOLDS + "-fold"
                    + " cross-validation (" + n + " points, above " + EXACT_LEAVE_ONE_OUT_MAX + "): each point predicted"
                    + " by a fit without its fold (every " + FOLDS + "th size)" + (stride == 1 ? ""
                    : "; each fold fitted on every " + stride + "th of its training sizes (about "
                    + (n - n / FOLDS) / stride + " of " + (n - n / FOLDS) + ")"));
        }
        // The n refits are independent and each writes only its own slot, so they run on all cores and the
        // result is the same to the last digit whatever the thread count.
        double[] held = e.heldOutUs(points).map(h -> {
            IntStream.range(0, n).forEach(i -> progress.refitted());
            return h;
        }).orElseGet(() -> {
            double[] refitted = new double[n];
            IntStream.range(0, n).parallel().forEach(i -> {
                refitted[i] = e.model().timeUs(bytes[i], e.estimate(points.without(i)));
                progress.refitted();
            });
            return refitted;
        });
        return fit.withLeaveOneOut(Rmspe.of(bytes, measured, held), null);
    }
}
