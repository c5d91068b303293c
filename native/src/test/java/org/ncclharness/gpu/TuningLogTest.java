package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;

/** Lines in the formats NCCL's enqueue.cc prints them (INFO prefix: host:pid:tid [cudaDev] NCCL INFO). */
class TuningLogTest {
    private static final List<String> NCCL_2_24 = List.of(
            "gpunode01:4242:4242 [0] NCCL INFO NCCL version 2.30.7+cuda13.0",
            "gpunode01:4242:4242 [0] NCCL INFO NCCL_ALGO set by environment to Ring",
            "gpunode01:4242:4242 [0] NCCL INFO Channel 00/08 : 0 1 2 3 4 5 6 7",
            "gpunode01:4242:4300 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..7}",
            "gpunode01:4242:4300 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..7}",
            "gpunode01:4242:4300 [0] NCCL INFO AllReduce: 134217728 Bytes -> Algo NVLS proto SIMPLE channel{Lo..Hi}={0..15} comm 0x55a7a339db50",
            "gpunode01:4242:4300 [0] NCCL INFO AllGather: 131072 Bytes -> Algo RING proto LL128 channel{Lo..Hi}={0..3}",
            "[2026-12-01 20:00:00] gpunode01:4242:4300 [0] NCCL INFO AllReduce [Symmetric]: 4096 Bytes -> Kernel AllReduce_AGxLL_R nchannels 4 nthreads 512 nWorks 1");

    @Test
    void readsThe224FormatWithChannelsAndTheSymmetricPath() {
        List<TuningChoice> c = TuningLog.parse(NCCL_2_24);
        assertThat(c).hasSize(5);
        assertThat(c.get(0)).isEqualTo(new TuningChoice("AllReduce", 1048576, "RING", "LL", 0, 7, null, null, 4));
        assertThat(c.get(2).algorithm()).isEqualTo("NVLS");
        assertThat(c.get(2).channelHi()).isEqualTo(15);
        assertThat(c.get(4)).isEqualTo(new TuningChoice("AllReduce", 4096, "AllReduce_AGxLL_R", null, null, null,
                null, "Symmetric", 8));
        assertThat(TuningLog.ran(c, Collective.ALL_REDUCE, 1048576)).containsExactly("RING/LL");
        assertThat(TuningLog.ran(c, Collective.ALL_GATHER, 131072)).containsExactly("RING/LL128");
        assertThat(TuningLog.ran(c, Collective.ALL_GATHER, 1048576)).isEmpty();
    }

    @Test
    void readsThe223AndThe220FormatsWithNumericIds() {
        List<TuningChoice> c = TuningLog.parse(List.of(
                "node7:100:120 [1] NCCL INFO AllReduce: 65536 Bytes -> Algo 0 proto 1 time 10.480000",
                "node7:100:120 [1] NCCL INFO 8 Bytes -> Algo 1 proto 0 time 6.650000",
                "node7:100:120 [1] NCCL INFO 8 Bytes -> Algo 6 proto 2 time 7.000000"));
        assertThat(c.get(0)).isEqualTo(new TuningChoice("AllReduce", 65536, "TREE", "LL128", null, null, 10.48, null, 1));
        assertThat(c.get(1).function()).isNull();
        assertThat(c.get(2).algorithm()).isEqualTo("PAT");
        assertThat(c.get(2).protocol()).isEqualTo("SIMPLE");
        assertThat(TuningLog.ran(c, Collective.REDUCE_SCATTER, 8)).containsExactly("RING/LL", "PAT/SIMPLE");
    }

    @Test
    void aLogWithoutTuningLinesYieldsNothing() {
        assertThat(TuningLog.parse(List.of("gpunode01:4242:4242 [0] NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 1"))).isEmpty();
    }

    @Test
    void theLoggedSizeIsPerRankForAllGatherAndReduceScatter() {
        assertThat(TuningLog.apiBytes(SizeSetup.of(Collective.ALL_GATHER, DataType.FLOAT, 1 << 20, 8))).isEqualTo(131072);
        assertThat(TuningLog.apiBytes(SizeSetup.of(Collective.ALL_REDUCE, DataType.FLOAT, 1 << 20, 8))).isEqualTo(1 << 20);
    }

    @Test
    void requestedListsFollowNcclAlgoSyntax() {
        assertThat(TuningLog.allowed("Ring", "RING", Collective.ALL_REDUCE)).isTrue();
        assertThat(TuningLog.allowed("Ring,Tree", "NVLS", Collective.ALL_REDUCE)).isFalse();
        assertThat(TuningLog.allowed("^LL", "LL128", Collective.ALL_REDUCE)).isTrue();
        assertThat(TuningLog.allowed("^LL", "LL", Collective.ALL_REDUCE)).isFalse();
        assertThat(TuningLog.allowed("ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring", "RING",
                Collective.ALL_REDUCE)).isFalse();
        assertThat(TuningLog.allowed("ring,collnetdirect;allreduce:tree,collnetdirect", "COLLNET_DIRECT",
                Collective.ALL_GATHER)).isTrue();
        assertThat(TuningLog.allowed("NVLSTree", "NVLS_TREE", Collective.ALL_REDUCE)).isTrue();
        assertThat(TuningLog.allowed(null, "PAT", Collective.ALL_GATHER)).isTrue();
    }

    @Test
    void theTuningPassKeepsDebugOutputInFiles() {
        assertThat(NcclEnvironment.tuningPass("Ring", "LL", java.nio.file.Path.of("/tmp/run/tuning")))
                .containsEntry("NCCL_ALGO", "Ring").containsEntry("NCCL_PROTO", "LL")
                .containsEntry("NCCL_DEBUG", "INFO").containsEntry("NCCL_DEBUG_SUBSYS", "INIT,ENV,TUNING")
                .containsEntry("NCCL_DEBUG_FILE", "/tmp/run/tuning.%h.%p");
        assertThat(NcclEnvironment.forCombination(null, "Simple")).containsOnlyKeys("NCCL_PROTO");
    }
}
