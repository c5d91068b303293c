package org.ncclharness.calibration.calibrate;

import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.twotier.ParamRanges;
import org.ncclharness.calibration.fit.twotier.Prior;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.fit.twotier.TwoTierFitter;
import org.ncclharness.calibration.fit.twotier.TwoTierProblem;
import org.ncclharness.calibration.model.TwoTierForm;

/**
 * Scores out of sample only the families that can still win the pick ({@link ModelChoice#of}), for a command that
 * shows the pick alone ({@link Scoring#PICK_ONLY}); the rest keep their in-sample fit and no score at all.
 *
 * <p>Why a family may be passed over. For least squares at its optimum θ* (minimising S) and the refit θ_i without
 * point i (minimising S₋ᵢ), S(θ*) ≤ S(θ_i) = S₋ᵢ(θ_i) + r_i(θ_i)² ≤ S₋ᵢ(θ*) + r_i(θ_i)², so r_i(θ_i)² ≥ r_i(θ*)²: each
 * held-out residual is at least the in-sample one, and a family's leave-one-out RMSPE at least its in-sample RMSPE.
 * The same holds with a prior term in S (the two-tier forms'), and for K-fold cross-validation with disjoint folds
 * fitted on all their other points (the inequality summed over a fold). So once some family scores L, a family whose
 * in-sample RMSPE exceeds L by more than the pick's tie margin ({@link ModelChoice#TIE_POINTS}) would score above
 * the lowest score plus the margin: it can neither be the lowest nor tie with it, and its score changes nothing.
 * Families too small for leave-one-out are scored by GCV (no refit) and set L like the rest, but only once some
 * family has a leave-one-out score (before that, the pick would take its fallback): the pending family with the
 * lowest in-sample RMSPE is always scored. Pending families go in order of their in-sample RMSPE, so the likely
 * winners set L first.
 *
 * <p>Where the bound is not a theorem the caller says so ({@code passable}) and the family is always scored:
 * folds fitted on a thinned subsample of their points. The envelopes take β from the sweep's end before their least
 * squares and their multi-start optimum is local: for them the bound is held by measurement, PickOnlyTest comparing
 * the pick and its score with {@link Scoring#EVERY_FAMILY}'s on every bundled run.
 */
final class PickOnly {

    /** A fitted family's note where its leave-one-out was passed over (worded when used: the wording is installed). */
    static String skipped() {
        return "not scored: its in-sample RMSPE already exceeds another family's out-of-sample score by more than the"
                + " pick's tie margin, so it cannot be picked (" + Advice.name(Setting.VERBOSE) + " scores it)";
    }

    private PickOnly() {
    }

    /**
     * A family fitted in-sample, its out-of-sample score still to come: scored or skipped by {@link #score}, then
     * read by {@link #result}.
     *
     * @param <T> the fit's type
     */
    static final class Pending<T> {
        private final T inSample;
        private final double inSamplePct;
        private final boolean passable;
        private final UnaryOperator<T> score;
        private final BiFunction<T, String, T> skip;
        private final Function<T, ModelChoice.Family> family;
        private T result;

        private Pending(T inSample, double inSamplePct, boolean passable, UnaryOperator<T> score,
                        BiFunction<T, String, T> skip, Function<T, ModelChoice.Family> family) {
            this.inSample = inSample;
            this.inSamplePct = inSamplePct;
            this.passable = passable;
            this.score = score;
            this.skip = skip;
            this.family = family;
        }

        /** A single-run family whose leave-one-out costs refits, announced to {@code progress} when they start. */
        static Pending<Fit> of(Estimator e, FitPoints points, List<String> marks, FitProgress progress) {
            Fit in = Fitter.inSample(e, points, marks);
            int refits = Fitter.refits(points.size(), e.freeParameters().size());
            return new Pending<>(in, in.inSample().overallPct().orElse(Double.NaN),
                    refits > 0 && Fitter.boundedByInSample(points.size()), f -> {
                        progress.started(refits);
                        return Fitter.scored(f, e, points, progress);
                    }, Fit::leaveOneOutSkipped, ModelChoice.Family::of);
        }

        /** A two-tier form in {@code box}, as {@code family} shows it to the pick. */
        static Pending<TwoTierFit> of(TwoTierProblem p, TwoTierForm form, ParamRanges box, List<Prior> priors,
                                      Function<TwoTierFit, ModelChoice.Family> family) {
            TwoTierFitter.Unscored in = TwoTierFitter.inSample(p, form, box, priors);
            return new Pending<>(in.fit(), in.fit().rmspePct(),
                    in.fit().rmspe().points() >= TwoTierFitter.LOO_MIN_POINTS, f -> in.scored(), (f, why) -> f, family);
        }

        /** A family scored as it was fitted (a joint fit's folds): nothing left to do, never passed over. */
        static Pending<Fit> scored(Fit f) {
            return new Pending<>(f, f.inSample().overallPct().orElse(Double.NaN), false, UnaryOperator.identity(),
                    (x, why) -> x, ModelChoice.Family::of);
        }

        private double inSamplePct() {
            return inSamplePct;
        }

        /** The fit, scored or skipped. */
        T result() {
            if (result == null) {
                throw new IllegalStateException("not yet scored: PickOnly.score first");
            }
            return result;
        }

        private ModelChoice.Family scored() {
            result = score.apply(inSample);
            return family.apply(result);
        }
    }

    /**
     * Scores the pending families as {@code scoring} asks: every one, or only those that can still win the pick.
     *
     * @param scored  the families already scored (those whose score costs no refit)
     * @param pending the families still to score
     */
    static void score(Scoring scoring, List<ModelChoice.Family> scored, List<? extends Pending<?>> pending) {
        if (scoring == Scoring.EVERY_FAMILY) {
            pending.forEach(Pending::scored);
            return;
        }
        boolean anyLeaveOneOut = scored.stream().anyMatch(f -> f.leaveOneOutPct().isPresent());
        double low = scored.stream().flatMapToDouble(f -> f.scorePct().stream()).min()
                .orElse(Double.POSITIVE_INFINITY);
        // NaN (no in-sample score) sorts last and is never passed over
        List<? extends Pending<?>> order = pending.stream()
                .sorted(Comparator.comparingDouble(Pending::inSamplePct)).toList();
        for (Pending<?> p : order) {
            if (anyLeaveOneOut && p.passable && p.inSamplePct() > low + ModelChoice.TIE_POINTS) {
                skip(p);
                continue;
            }
            ModelChoice.Family f = p.scored();
            anyLeaveOneOut |= f.leaveOneOutPct().isPresent();
            if (f.scorePct().isPresent()) {
                low = Math.min(low, f.scorePct().getAsDouble());
            }
        }
    }

    private static <T> void skip(Pending<T> p) {
        p.result = p.skip.apply(p.inSample, skipped());
    }
}
