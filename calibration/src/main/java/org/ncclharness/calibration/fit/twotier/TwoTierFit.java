package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;
import java.util.List;
import java.util.OptionalDouble;
import org.ncclharness.calibration.fit.Rmspe;

/**
 * A two-tier fit: the best parameters in the search box, how well they predict, and what the data identify.
 *
 * @param rmspe            against the measured points (priors not included), overall and per band
 * @param looRmspePct      leave-one-out RMSPE (each point predicted by a fit without it); empty when there
 *                         are fewer than 3k + 3 = 18 points (docs/calibration.md)
 * @param profiles         one per parameter, in {@link TwoTierParam} order
 * @param configurations   the fit read at each configuration in the data
 * @param bottleneck       flat ring only: {@code nvlink} or {@code inter-domain}, the link the fit says limits
 *                         the multi-domain ring; null for the hierarchical form
 * @param notes            caveats a reader must see (u_NV above 1, fewer points than parameters)
 * @param facesSolved      least-squares faces solved for the best fit (the fitter's unit of work)
 */
public record TwoTierFit(TwoTierForm form, TwoTierParams params, Rmspe rmspe, OptionalDouble looRmspePct,
                         List<ParamProfile> profiles, List<ConfigSummary> configurations, List<Prior> priors,
                         String bottleneck, List<String> notes, int facesSolved) {

    public TwoTierFit {
        profiles = List.copyOf(profiles);
        configurations = List.copyOf(configurations);
        priors = List.copyOf(priors);
        notes = List.copyOf(notes);
    }

    public double rmspePct() {
        return rmspe.overallPct().orElseThrow();
    }

    public ParamProfile profile(TwoTierParam p) {
        return profiles.get(p.ordinal());
    }

    /** This fit with its leave-one-out RMSPE ({@link TwoTierFitter.Unscored#scored}). */
    TwoTierFit withLeaveOneOut(OptionalDouble loo) {
        return new TwoTierFit(form, params, rmspe, loo, profiles, configurations, priors, bottleneck, notes,
                facesSolved);
    }

    /**
     * Whether leave-one-out was left unscored though the points allow it ({@link TwoTierFitter.Unscored} not scored:
     * a form that could not win the pick, where only the pick was wanted).
     */
    public boolean leaveOneOutSkipped() {
        return looRmspePct.isEmpty() && rmspe.points() >= TwoTierFitter.LOO_MIN_POINTS;
    }

    /** Leave-one-out RMSPE where there is one, else in-sample: what forms are compared by. */
    public double comparisonPct() {
        return looRmspePct.orElse(rmspePct());
    }
}
