package org.ncclharness.calibration.measure;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class CollectiveTest {

    @Test
    void busFactorsFollowNcclTests() {
        assertThat(Collective.ALL_REDUCE.busFactor(8)).isEqualTo(14.0 / 8);
        assertThat(Collective.ALL_GATHER.busFactor(16)).isEqualTo(15.0 / 16);
        assertThat(Collective.REDUCE_SCATTER.busFactor(2)).isEqualTo(0.5);
        assertThat(Collective.ALL_TO_ALL.busFactor(4)).isEqualTo(0.75);
        assertThat(Collective.BROADCAST.busFactor(8)).isEqualTo(1.0);
        assertThat(Collective.SEND_RECV.busFactor(8)).isEqualTo(1.0);
    }

    @Test
    void allGatherPrintsTotalSizeAndPerRankCount() {
        // nccl-tests all_gather_perf -b 1M with 8 ranks of float: count 32768 per rank, size 1048576.
        Collective.ByteCounts c = Collective.ALL_GATHER.counts(1 << 20, 4, 8);
        assertThat(c.paramCount()).isEqualTo(32768);
        assertThat(c.recvElements()).isEqualTo(262144);
        assertThat(c.printedBytes()).isEqualTo(1 << 20);
    }

    @Test
    void smallAllGatherRoundsDownToSixteenBytes() {
        // 8 bytes over 2 ranks of float: base = align(1) = 0, as the rtx2080ti all_gather log prints "0 0".
        assertThat(Collective.ALL_GATHER.counts(8, 4, 2).printedBytes()).isZero();
    }

    @Test
    void busBandwidthAndTimeAreNcclTestsDefinitionBothWays() {
        // The reference block's 16 MiB row: 101.52 us over 8 ranks prints busbw 289.21.
        assertThat(Collective.ALL_REDUCE.busBwGBps(16777216, 101.52, 8)).isCloseTo(289.21, org.assertj.core.data.Offset.offset(0.005));
        assertThat(Collective.ALL_REDUCE.timeUs(16777216, Collective.ALL_REDUCE.busBwGBps(16777216, 101.52, 8), 8))
                .isCloseTo(101.52, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void namesResolveInEverySpelling() {
        assertThat(Collective.byName("all_reduce_perf")).contains(Collective.ALL_REDUCE);
        assertThat(Collective.byName("allreduce")).contains(Collective.ALL_REDUCE);
        assertThat(Collective.byName("AllGather")).contains(Collective.ALL_GATHER);
        assertThat(Collective.byName("reduce_scatter")).contains(Collective.REDUCE_SCATTER);
        assertThat(Collective.byName("gossip")).isEmpty();
    }

    @Property
    void allReducePrintsWhatItWasGiven(@ForAll @LongRange(min = 4, max = 1L << 34) long bytes,
                                       @ForAll @IntRange(min = 1, max = 1024) int ranks) {
        long aligned = bytes / 4 * 4;
        assertThat(Collective.ALL_REDUCE.counts(aligned, 4, ranks).printedBytes()).isEqualTo(aligned);
    }
}
