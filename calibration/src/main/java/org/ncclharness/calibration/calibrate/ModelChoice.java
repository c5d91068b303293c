package org.ncclharness.calibration.calibrate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Which of the model families fitted to a run a prediction should use (one rule for one tier and for several): the lowest out-of-sample
 * RMSPE (points the fit did not see, so a family with more parameters gains nothing by them); where two families
 * score alike to the report's precision (within {@value #TIE_POINTS} point), the one with fewer parameters.
 * Out-of-sample is leave-one-out where the family has the 3k + 3 points it needs. Where some family has them and
 * another not (a sweep that stops at 256 MiB has 19 sizes from 1 KiB: enough for the two-tier forms' 18, not for
 * the envelopes' 21 and 27), the other is estimated by generalized cross-validation, its in-sample RMSPE over
 * 1 − k/n, so that it is compared rather than passed over: on real 2-host sweeps cut at 256 MiB, leave-one-out alone picked a two-tier form at 26 % and 50 % where
 * the envelopes fit within 10 %. Where no family has the points for leave-one-out, the data are too few to choose
 * between families by their fit, and the caller's {@code fallback} is used.
 *
 * @param picked   the family's model name
 * @param basis    one line: why this one
 * @param families every family as the pick saw it, fitting order
 */
public record ModelChoice(String picked, String basis, List<Family> families) {

    public ModelChoice {
        families = List.copyOf(families);
    }

    /**
     * Scores this close print alike (to 0.1 point) and count as a tie, which the family with fewer free parameters
     * wins. A wider margin was tried: 1 point kept the envelope on 6 of the bundled multi-domain runs where the
     * algorithm envelope scored lower by leave-one-out, and summed over those runs it cost 4.9 points on the
     * interleaved split and 2.1 on the extrapolation split (docs/model-accuracy.md at da2a7ff against this rule).
     */
    public static final double TIE_POINTS = 0.05;

    /**
     * One family as the pick sees it.
     *
     * @param leaveOneOutPct leave-one-out RMSPE in %, empty where the data have too few points for it
     * @param inSamplePct    RMSPE of the fit on all points in %
     * @param freeParameters k
     * @param points         n, the points fitted
     */
    public record Family(String name, OptionalDouble leaveOneOutPct, OptionalDouble inSamplePct, int freeParameters,
                         int points) {

        /**
         * A fitted family as the pick sees it: its leave-one-out where scored, its in-sample, k and n; no score at all
         * where leave-one-out was skipped ({@link PickOnly}: it could not win).
         */
        public static Family of(org.ncclharness.calibration.fit.Fit f) {
            Family family = new Family(f.name(), f.leaveOneOut() == null ? OptionalDouble.empty()
                    : f.leaveOneOut().overallPct(), f.inSample().overallPct(), f.freeParameters().size(),
                    f.inSample().points());
            return f.leaveOneOutSkipped() ? family.unscored() : family;
        }

        /** Leave-one-out where scored; else in-sample / (1 − k/n) where n > k; else empty. */
        public OptionalDouble scorePct() {
            if (leaveOneOutPct.isPresent()) {
                return leaveOneOutPct;
            }
            if (inSamplePct.isEmpty() || points <= freeParameters) {
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(inSamplePct.getAsDouble() / (1 - (double) freeParameters / points));
        }

        /** This family with no estimate where leave-one-out scored none (nothing to compare it with). */
        Family unscored() {
            return new Family(name, leaveOneOutPct, OptionalDouble.empty(), freeParameters, points);
        }

        /** Scored by generalized cross-validation rather than leave-one-out. */
        public boolean estimated() {
            return leaveOneOutPct.isEmpty() && scorePct().isPresent();
        }

        String shortScore() {
            return String.format(Locale.ROOT, "%.1f %%", scorePct().getAsDouble()) + (estimated() ? " GCV" : "");
        }

        String describe() {
            return estimated()
                    ? String.format(Locale.ROOT, "%.1f %% by generalized cross-validation (in-sample %.1f %% / (1 - %d/%d):"
                    + " too few points for leave-one-out)", scorePct().getAsDouble(), inSamplePct.getAsDouble(),
                    freeParameters, points)
                    : String.format(Locale.ROOT, "leave-one-out RMSPE %.1f %%", scorePct().getAsDouble());
        }
    }

    /**
     * @param families    every family fitted
     * @param fallback    the family to use where none is scored
     * @param fallbackWhy why that one, for the report line ({@code "the two-tier form with the lower in-sample
     *                    RMSPE"})
     */
    public static ModelChoice of(List<Family> families, String fallback, String fallbackWhy) {
        return of(families, fallback, fallbackWhy, TIE_POINTS);
    }

    /**
     * The pick with another tie margin than {@link #TIE_POINTS}: the accuracy report scores the wider margin that
     * was tried as an alternative rule (docs/model-accuracy.md, leave-one-cluster-out).
     */
    public static ModelChoice of(List<Family> families, String fallback, String fallbackWhy, double tiePoints) {
        if (families.stream().allMatch(f -> f.leaveOneOutPct().isEmpty())) {
            return new ModelChoice(fallback, "no family has enough points for leave-one-out; " + fallback + ", "
                    + fallbackWhy, families.stream().map(Family::unscored).toList());
        }
        Family best = null;
        for (Family f : families) {
            if (f.scorePct().isPresent() && (best == null
                    || f.scorePct().getAsDouble() < best.scorePct().getAsDouble())) {
                best = f;
            }
        }
        double low = best.scorePct().getAsDouble();
        Family pick = best;
        for (Family f : families) {
            if (f.scorePct().isPresent() && f.scorePct().getAsDouble() <= low + tiePoints
                    && f.freeParameters() < pick.freeParameters()) {
                pick = f;
            }
        }
        String basis = pick == best ? (best.estimated() ? "lowest out-of-sample RMSPE, " + best.describe()
                : String.format(Locale.ROOT, "lowest leave-one-out RMSPE (%.1f %%)", low))
                : String.format(Locale.ROOT, "%s, as low as %s's %s %s, with fewer parameters (k = %d"
                        + " against %d)", pick.describe(), best.name(), best.shortScore(), tiePoints == TIE_POINTS
                        ? "to 0.1 point" : String.format(Locale.ROOT, "within %.1f point", tiePoints),
                        pick.freeParameters(), best.freeParameters());
        return new ModelChoice(pick.name(), basis, families);
    }

    /** Each family's leave-one-out RMSPE in %, empty where not scored; fitting order. */
    public Map<String, OptionalDouble> scores() {
        Map<String, OptionalDouble> m = new LinkedHashMap<>();
        families.forEach(f -> m.put(f.name(), f.leaveOneOutPct()));
        return m;
    }

    /** The generalized cross-validation estimates of the families too small for leave-one-out. */
    public Map<String, Double> estimates() {
        Map<String, Double> m = new LinkedHashMap<>();
        families.stream().filter(Family::estimated).forEach(f -> m.put(f.name(), f.scorePct().getAsDouble()));
        return m;
    }

    /** {@code algorithms 7.1 %, envelope 9.4 % (GCV), hierarchical not scored} for a report line. */
    public String summary() {
        return families.stream().map(f -> f.name() + " " + (f.scorePct().isEmpty() ? "not scored"
                : String.format(Locale.ROOT, "%.1f %%", f.scorePct().getAsDouble()) + (f.estimated() ? " (GCV)" : "")))
                .collect(Collectors.joining(", "));
    }
}
