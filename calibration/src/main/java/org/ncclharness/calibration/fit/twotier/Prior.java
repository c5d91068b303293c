package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.measure.InputException;

/**
 * A Gaussian prior on one parameter, typically u_NV and ℓ_nv from the single-domain calibration of the same GPU
 * class. It enters the fit as one extra residual (θ − value)/sigma, weighted by the fit's own residual level
 * (MAP with the measurement noise estimated from the prior-free fit), so a prior steers only what the data
 * leave open and yields where the data speak.
 *
 * @param source  where the prior comes from (a dataset id), reported with the fit
 */
public record Prior(TwoTierParam param, double value, double sigma, String source) {

    public Prior {
        boolean positive = param == TwoTierParam.U_NV || param == TwoTierParam.BETA_IB;
        if (!Double.isFinite(value) || !(sigma > 0) || !Double.isFinite(sigma) || (positive ? !(value > 0) : value < 0)) {
            throw new InputException("prior", 0, param.id() + " = " + value + " ± " + sigma
                    + ": the value must be " + (positive ? "> 0" : ">= 0") + " and sigma > 0");
        }
    }
}
