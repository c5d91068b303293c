package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** -x against the loaded NCCL, as nccl-tests' common.cu treats it: ignored with its line where NCCL lacks it. */
class CtaPolicyTest {

    private static final NcclVersion V2_26 = new NcclVersion(2, 26, 6);
    private static final NcclVersion V2_27 = new NcclVersion(2, 27, 3);
    private static final NcclVersion V2_28 = new NcclVersion(2, 28, 3);

    @Test
    void withoutMinusXNothingIsSetOrSaid() {
        assertThat(CtaPolicy.of(-1, V2_26)).isEqualTo(new CtaPolicy(-1, java.util.Optional.empty()));
    }

    @Test
    void zeroPolicyBeforeNccl228IsIgnoredWithNcclTestsLine() {
        CtaPolicy p = CtaPolicy.of(2, V2_27);
        assertThat(p.value()).isEqualTo(-1);
        assertThat(p.ignored()).contains("Option -x (cta_policy) 2 is not supported before NCCL 2.28. Ignoring");
        assertThat(CtaPolicy.of(2, V2_28)).isEqualTo(new CtaPolicy(2, java.util.Optional.empty()));
    }

    @Test
    void anyPolicyBeforeNccl227IsIgnoredWithNcclTestsLine() {
        for (int x : new int[] {0, 1, 2}) {
            CtaPolicy p = CtaPolicy.of(x, V2_26);
            assertThat(p.value()).as("-x %d", x).isEqualTo(-1);
            assertThat(p.ignored()).contains("Option -x (cta_policy) is not supported before NCCL 2.27. Ignoring");
        }
    }

    @Test
    void efficiencyAndDefaultStandFromNccl227() {
        assertThat(CtaPolicy.of(0, V2_27).value()).isZero();
        assertThat(CtaPolicy.of(1, V2_27).value()).isEqualTo(1);
        assertThat(CtaPolicy.of(1, V2_27).ignored()).isEmpty();
    }
}
