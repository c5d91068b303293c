package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NcclVersionTest {
    @Test
    void decodesBothVersionCodeEncodings() {
        assertThat(NcclVersion.fromCode(23007)).isEqualTo(new NcclVersion(2, 30, 7));
        assertThat(NcclVersion.fromCode(22304)).hasToString("2.23.4");
        assertThat(NcclVersion.fromCode(2804)).isEqualTo(new NcclVersion(2, 8, 4)); // before 2.9: major*1000
        assertThat(NcclVersion.fromCode(20900)).isEqualTo(new NcclVersion(2, 9, 0));
        assertThat(NcclVersion.fromCode(2804).code()).isEqualTo(20804);
        assertThatThrownBy(() -> NcclVersion.fromCode(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parsesTheDebugLineFormAndOrders() {
        assertThat(NcclVersion.parse("2.23.4+cuda12.6")).isEqualTo(new NcclVersion(2, 23, 4));
        assertThat(new NcclVersion(2, 10, 0)).isGreaterThan(new NcclVersion(2, 9, 9));
        assertThat(new NcclVersion(2, 9, 0).atLeast(new NcclVersion(2, 9, 0))).isTrue();
    }

    @Test
    void theGatingTableKnowsWhatEachReleaseLacks() {
        NcclVersion v2273 = new NcclVersion(2, 27, 3);
        assertThat(NcclFeature.missingFrom(v2273)).containsExactly(NcclFeature.ALL_TO_ALL_API, NcclFeature.GATHER_SCATTER_API,
                NcclFeature.CTA_POLICY_ZERO, NcclFeature.NVLINK_CENTRIC_SCHED, NcclFeature.MAX_P2P_PEERS);
        assertThat(NcclFeature.missingFrom(new NcclVersion(2, 30, 7))).isEmpty();
        // nccl-tests 2.19.6 switches AllToAll to ncclAlltoAll at 2.28.0 (alltoall.cu's run-time check)
        assertThat(NcclFeature.ALL_TO_ALL_API.isAvailable(new NcclVersion(2, 28, 0))).isTrue();
        NcclVersion v2184 = new NcclVersion(2, 18, 4);
        assertThat(NcclFeature.MEM_ALLOC.isAvailable(v2184)).isFalse();
        assertThat(NcclFeature.COMM_SPLIT.isAvailable(v2184)).isTrue();
        assertThat(NcclFeature.GET_LAST_ERROR.isAvailable(new NcclVersion(2, 12, 12))).isFalse();
        assertThat(NcclFeature.PER_OP_TUNING_LOG.isAvailable(new NcclVersion(2, 23, 4))).isFalse();
        assertThat(NcclFeature.missingFrom(new NcclVersion(2, 8, 4))).contains(NcclFeature.BASELINE);
    }

    @Test
    void optionsNcclTestsCannotCombineAreRefusedInOneLine() {
        LoopOptions o = LoopOptions.defaults(org.ncclharness.calibration.measure.Collective.ALL_REDUCE,
                DataType.FLOAT, ReduceOp.SUM, 0, java.util.List.of(8L));
        assertThatThrownBy(() -> o.withGraph(1).withBlocking(1)).hasMessageStartingWith("-z 1 waits after every operation");
        assertThat(o.withGraph(1).withBlocking(3).effectiveBlocking()).isZero();
        assertThatThrownBy(() -> o.withPerIterTiming(true, 20)).hasMessageStartingWith("-K 20: expected 0 <= K < iters (20)");
        assertThatThrownBy(() -> o.withPerIterTiming(false, 1)).hasMessage("-K needs -I 1");
        assertThatThrownBy(() -> LoopOptions.Average.ofFlag(4)).hasMessageStartingWith("-a 4");
    }

    @Test
    void aLoopOptionNewerThanTheLibraryIsRefusedBeforeAnyCall() {
        LoopOptions bf16 = LoopOptions.defaults(org.ncclharness.calibration.measure.Collective.ALL_REDUCE,
                DataType.BFLOAT16, ReduceOp.SUM, 0, java.util.List.of(8L));
        assertThatThrownBy(() -> bf16.requireSupportedBy(new NcclVersion(2, 9, 9)))
                .isInstanceOf(GpuEnvironmentException.class)
                .hasMessageStartingWith("NCCL_TOO_OLD: ncclBfloat16 needs NCCL 2.10.0 or newer; the loaded library is 2.9.9");
        LoopOptions avg = LoopOptions.defaults(org.ncclharness.calibration.measure.Collective.ALL_GATHER,
                DataType.FLOAT, ReduceOp.AVG, 0, java.util.List.of(8L));
        avg.requireSupportedBy(new NcclVersion(2, 9, 9)); // AllGather does not reduce: the op is irrelevant
    }
}
