package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclConfig_t;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;

class NewerNcclCallsTest {

    @Test
    void ncclAlltoAllIsCalledOnlyFromNccl228OnWhereTheBindingDeclaresIt() {
        // this module compiles against the CUDA 13 preset, whose binding declares it
        assertThat(NewerNcclCalls.declares(nccl.class, "ncclAlltoAll", Pointer.class, Pointer.class, long.class,
                int.class, ncclComm.class, CUstream_st.class)).isTrue();
        assertThat(NewerNcclCalls.allToAll(NcclVersion.parse("2.28.0"))).isTrue();
        assertThat(NewerNcclCalls.allToAll(NcclVersion.parse("2.27.3"))).isFalse();
        assertThat(NewerNcclCalls.allToAll(null)).isFalse();
    }

    @Test
    void ncclGatherAndScatterAreCalledOnlyFromNccl228OnWhereTheBindingDeclaresThem() {
        assertThat(NewerNcclCalls.gatherScatter(NcclVersion.parse("2.28.0"))).isTrue();
        assertThat(NewerNcclCalls.gatherScatter(NcclVersion.parse("2.27.3"))).isFalse();
        assertThat(NewerNcclCalls.gatherScatter(null)).isFalse();
    }

    @Test
    void aMethodTheBindingLacksIsSeenAsAbsent() {
        assertThat(NewerNcclCalls.declares(nccl.class, "ncclAlltoAll", Pointer.class)).isFalse();
        assertThat(NewerNcclCalls.declares(nccl.class, "ncclNoSuchCall")).isFalse();
        assertThat(NewerNcclCalls.declares(ncclConfig_t.class, "noSuchField", int.class)).isFalse();
    }
}
