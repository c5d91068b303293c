package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParams;
import org.ncclharness.calibration.fit.Rmspe;

/**
 * The exact fitter's best point in a box, without profiles: what the benchmark races against the grid.
 *
 * @param facesSolved least-squares faces solved (the fitter's unit of work; at most 3⁵ per convex region)
 * @param seconds     wall time of the call
 */
public record FastResult(TwoTierForm form, TwoTierParams best, Rmspe rmspe, int facesSolved, double seconds) {

    public double rmspePct() {
        return rmspe.overallPct().orElseThrow();
    }
}
