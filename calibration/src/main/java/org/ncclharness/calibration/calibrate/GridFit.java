package org.ncclharness.calibration.calibrate;

import org.ncclharness.calibration.fit.twotier.FastResult;
import org.ncclharness.calibration.fit.twotier.GridResult;
import org.ncclharness.calibration.fit.twotier.ParamRanges;
import org.ncclharness.calibration.model.TwoTierForm;

/**
 * The reference grid search of one two-tier form ({@code calibrate --grid}), with the exact fitter's optimum of
 * the same box and the same objective (overall RMSPE, no priors) beside it: the fair comparison, since the
 * entry's own fit may rest on priors or search the default box. The exact optimum is never worse, every grid
 * point being in the box it minimises over.
 *
 * @param box        what the grid enumerated
 * @param grid       its best combination, RMSPE and cost
 * @param exactOnBox {@code TwoTierFitter.best} on {@code box}
 */
public record GridFit(ParamRanges box, GridResult grid, FastResult exactOnBox) {

    /** The model name reports and {@code --model} use: {@code grid-hierarchical}, {@code grid-flat-ring}. */
    public static String modelName(TwoTierForm form) {
        return "grid-" + form.id();
    }

    public TwoTierForm form() {
        return grid.form();
    }

    public String modelName() {
        return modelName(form());
    }
}
