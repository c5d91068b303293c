package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TwoTierModelTest {

    private static final TwoTierParams P = new TwoTierParams(0.8, 100, 1.0, 5.0, 10.0);

    @Test
    void hierarchicalAddsBothBandwidthTermsToTheConfigurationsLatencies() {
        TwoTierConfig c = new TwoTierConfig(2, 8);
        double m = 1e9;
        // α_nv = 2·7·2·1 = 28, α_ib = 2·1·5 = 10; NV: (14/8)·1e9/(360e3) µs; IB: 1·1e9/(100e3) µs.
        double expected = 10 + 28 + 10 + 1.75 * m / 360e3 + 1.0 * m / 100e3;
        assertThat(TwoTierModel.timeUs(TwoTierForm.HIERARCHICAL, c, 450, 2, P, m)).isCloseTo(expected, within(1e-9));
    }

    @Test
    void flatRingIsLimitedByTheSlowerLinkAndStaysOnNvlinkInsideOneDomain() {
        double m = 1e9;
        double multi = TwoTierModel.timeUs(TwoTierForm.FLAT_RING, new TwoTierConfig(2, 8), 450, 2, P, m);
        assertThat(multi).isCloseTo(48 + (30.0 / 16) * m / 100e3, within(1e-9));
        double single = TwoTierModel.timeUs(TwoTierForm.FLAT_RING, new TwoTierConfig(1, 8), 450, 2, P, m);
        assertThat(single).isCloseTo(10 + 28 + (14.0 / 8) * m / 360e3, within(1e-9));
    }

    @Test
    void busBandwidthAsymptoteIsTheLargeMessageLimit() {
        TwoTierConfig c = new TwoTierConfig(4, 8);
        double m = 1e15;
        double t = TwoTierModel.timeUs(TwoTierForm.HIERARCHICAL, c, 450, 2, P, m);
        double busBw = m / (t * 1e3) * (2.0 * 31 / 32);
        assertThat(TwoTierModel.busBwAsymptoteGBps(TwoTierForm.HIERARCHICAL, c, 450, P)).isCloseTo(busBw, within(1e-6));
    }

    @Test
    void problemPredictionsAreTheModels() {
        TwoTierProblem p = TwoTierTestData.joint(TwoTierForm.HIERARCHICAL,
                java.util.List.of(new TwoTierConfig(2, 8), new TwoTierConfig(4, 4)), P, 0);
        double[] pred = p.predictUs(TwoTierForm.HIERARCHICAL, P);
        assertThat(p.rmspe(TwoTierForm.HIERARCHICAL, P).overallPct().getAsDouble()).isLessThan(1e-9);
        assertThat(pred).hasSize(2 * TwoTierTestData.SIZES.length);
    }
}
