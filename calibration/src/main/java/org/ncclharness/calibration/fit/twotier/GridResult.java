package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParams;
import org.ncclharness.calibration.fit.Rmspe;

/**
 * The reference grid search's answer: the best combination, its RMSPE (recomputed through {@link TwoTierModel}
 * at every point) and what the search cost.
 *
 * @param bestIndex          the winner's index in enumeration order (u_NV slowest, T_sw fastest); ties go to
 *                           the lowest index, so the answer does not depend on the thread count
 * @param combinations       combinations scored (the product of the points per axis)
 * @param pointEvaluations   model evaluations: combinations × points
 * @param seconds            wall time of the search
 */
public record GridResult(TwoTierForm form, TwoTierParams best, Rmspe rmspe, long bestIndex, long combinations,
                         long pointEvaluations, double seconds, int threads) {

    public double rmspePct() {
        return rmspe.overallPct().orElseThrow();
    }

    public double evaluationsPerSecond() {
        return pointEvaluations / seconds;
    }
}
