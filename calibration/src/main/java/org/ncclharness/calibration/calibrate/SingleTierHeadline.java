package org.ncclharness.calibration.calibrate;

import java.util.Optional;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.SingleTierModel;

/**
 * The seed's numbers of a single-tier calibration as a report shows them (docs/calibration.md), each null where the
 * data do not determine it: the text table ({@link CalibrationTable}) and the calibration page print the same
 * values.
 *
 * @param betaPhysGBps  β_phys of the interconnect, null where it has no fixed figure
 * @param busBwPeakGBps busbw at the largest size, null where the data do not determine β
 * @param ur            u_r = BusBW_peak / β_phys (0.92 where NVLS on NVSwitch), null without β_phys or β
 * @param betaFitGBps   β of method B+beta (ℓ_link and β fitted jointly), null where it was not fitted
 * @param ellLinkUs     ℓ_link of method B, null where the sizes do not reach α and nothing fixed it
 * @param alphaAUs      α of method A (chip profile), null without a profile
 * @param alphaBUs      α of method B, null where ℓ_link is
 */
public record SingleTierHeadline(Double betaPhysGBps, Double busBwPeakGBps, Double ur, Double betaFitGBps,
                                 Double ellLinkUs, Double alphaAUs, Double alphaBUs) {

    public static SingleTierHeadline of(SingleTierCalibration s) {
        boolean beta = s.identifiability().beta();
        Optional<Fit> b = s.fit(SingleTierCalibrator.METHOD_B);
        // ℓ_link is shown where the sizes reach α (the summary's rule) or the user fixed it (α not calibrated, ℓ_link
        // not the 0 of bandwidth-only data); a fitted intercept off the latency plateau is not the link's latency.
        Optional<Fit> bAlpha = b.filter(f -> s.identifiability().alphaReached()
                || !s.identifiability().alpha() && f.theta()[0] > 0);
        return new SingleTierHeadline(s.seed().betaPhysGBps(), beta ? s.seed().busBwPeakGBps() : null,
                beta ? s.seed().ur() : null,
                s.fit(SingleTierCalibrator.METHOD_B_FITTED_BETA).map(f -> f.theta()[1]).orElse(null),
                bAlpha.map(f -> f.theta()[0]).orElse(null),
                s.fit(SingleTierCalibrator.METHOD_A).map(SingleTierHeadline::alpha).orElse(null),
                bAlpha.map(SingleTierHeadline::alpha).orElse(null));
    }

    /** α of method A's or B's fit: single-tier α-β models both. */
    private static double alpha(Fit f) {
        double[] theta = f.theta();
        return f.model().accept(new OtherwiseVisitor<Double>() {
            @Override
            public Double singleTier(SingleTierModel m) {
                return m.alphaUs(theta);
            }

            @Override
            protected Double otherwise(CostModel m) {
                throw new IllegalStateException("methods A and B fit the single-tier alpha-beta model, not "
                        + m.form());
            }
        });
    }
}
