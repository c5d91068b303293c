package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierParam;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.InputException;

class ParamRangeTest {

    @Test
    void parsesMinMaxPointsAndSpacesValuesEvenly() {
        ParamRange r = ParamRange.parse(TwoTierParam.U_NV, "--grid-u-nv", "0.5:1:6");
        assertThat(r.values()).containsExactly(0.5, 0.6, 0.7, 0.8, 0.9, 1.0);
        assertThat(ParamRange.parse(TwoTierParam.T_SW, "--grid-t-sw", "3:3:1").values()).containsExactly(3.0);
    }

    @Test
    void negativeBandwidthIsRefusedWithTheFlagAndTheReason() {
        assertThatThrownBy(() -> ParamRange.parse(TwoTierParam.BETA_IB, "--grid-beta-ib", "-5:100:10"))
                .isInstanceOf(InputException.class)
                .hasMessage("--grid-beta-ib: beta_IB range -5:100:10: beta_IB is a bandwidth (or a fraction of one)"
                        + " and must be > 0");
    }

    @Test
    void minAboveMaxIsRefused() {
        assertThatThrownBy(() -> ParamRange.parse(TwoTierParam.ELL_NV, "--grid-ell-nv", "2:1:10"))
                .isInstanceOf(InputException.class).hasMessageContaining("min > max");
    }

    @Test
    void zeroPointsIsRefused() {
        assertThatThrownBy(() -> ParamRange.parse(TwoTierParam.ELL_IB, "--grid-ell-ib", "0:1:0"))
                .isInstanceOf(InputException.class).hasMessageContaining("0 points; give at least 1");
    }

    @Test
    void negativeLatencyAndMalformedTextAreRefused() {
        assertThatThrownBy(() -> ParamRange.parse(TwoTierParam.T_SW, "--grid-t-sw", "-1:1:3"))
                .isInstanceOf(InputException.class).hasMessageContaining("cannot be negative");
        assertThatThrownBy(() -> ParamRange.parse(TwoTierParam.T_SW, "--grid-t-sw", "0:1"))
                .isInstanceOf(InputException.class).hasMessageContaining("expected min:max:points");
        assertThatThrownBy(() -> ParamRange.parse(TwoTierParam.T_SW, "--grid-t-sw", "0:x:3"))
                .isInstanceOf(InputException.class).hasMessageContaining("expected two numbers");
    }

    @Test
    void recordsBuiltInCodeAreCheckedToo() {
        assertThatThrownBy(() -> new ParamRanges(new ParamRange(0, 1, 3), new ParamRange(1, 2, 3),
                new ParamRange(0, 1, 3), new ParamRange(0, 1, 3), new ParamRange(0, 1, 3)))
                .isInstanceOf(InputException.class).hasMessageContaining("u_NV range 0:1:3");
    }
}
