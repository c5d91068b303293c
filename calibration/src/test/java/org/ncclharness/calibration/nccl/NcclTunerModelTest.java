package org.ncclharness.calibration.nccl;

import org.ncclharness.calibration.model.NcclBaseline;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.model.NcclTunerModel.Candidate;
import org.ncclharness.calibration.model.NcclTunerModel;

class NcclTunerModelTest {

    private static final double MIB = 1 << 20;
    /** Reference D.8: 8 GPUs, one Hopper node, an NVLink ring graph of 16 channels x 20 GB/s. */
    private static final NcclTunerModel D8 = new NcclTunerModel(Collective.ALL_REDUCE, 8, 1, 90, "NVLINK", 16, 20.0,
            20.0, "2.30.7");

    private static Candidate ring(Protocol p) {
        return D8.candidates().stream().filter(c -> c.algorithm() == Algorithm.RING && c.protocol() == p)
                .findFirst().orElseThrow();
    }

    @Test
    void ringBandwidthsAndLatenciesAreTheWorkedExample() {
        assertThat(ring(Protocol.LL).algBwGBps()).isCloseTo(80.57, within(0.01));
        assertThat(ring(Protocol.LL128).algBwGBps()).isCloseTo(168.23, within(0.01));
        assertThat(ring(Protocol.SIMPLE).algBwGBps()).isCloseTo(182.86, within(0.01));
        assertThat(ring(Protocol.LL).latencyUs()).isCloseTo(15.0, within(1e-9));
        assertThat(ring(Protocol.LL128).latencyUs()).isCloseTo(40.6, within(1e-9));
        assertThat(ring(Protocol.SIMPLE).latencyUs()).isCloseTo(56.0, within(1e-9));
    }

    @Test
    void broadcastAndReduceTakeNcclsNStepsSoTheirAlgorithmBandwidthIsTheBusBandwidth() {
        // 16 channels x 20 GB/s = 320 GB/s on Simple; NCCL's nsteps is N for Broadcast and Reduce (ratio N/N = 1)
        // and N-1 for AllGather (8/7), though a pipelined chain makes N-1 hops
        for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE, Collective.ALL_GATHER}) {
            NcclTunerModel m = new NcclTunerModel(c, 8, 1, 90, "NVLINK", 16, 20.0, 20.0, "2.30.7");
            double simple = m.candidates().stream().filter(x -> x.protocol() == Protocol.SIMPLE).findFirst()
                    .orElseThrow().algBwGBps();
            assertThat(simple).as("%s", c).isCloseTo(c == Collective.ALL_GATHER ? 320.0 * 8 / 7 : 320.0,
                    within(1e-9));
        }
    }

    @Test
    void ringTimesAreTheWorkedExample() {
        double[][] expected = {{1, 28.0, 46.8, 61.7}, {4, 67.1, 65.5, 78.9}, {32, 431, 240.1, 239.5}};
        for (double[] e : expected) {
            for (Protocol p : Protocol.values()) {
                assertThat(D8.time(ring(p), e[0] * MIB)).as("%s at %s MiB", p, e[0])
                        .isCloseTo(e[1 + p.ordinal()], within(e[0] == 32 && p == Protocol.LL ? 0.5 : 0.05));
            }
        }
    }

    @Test
    void ringCrossoversAreTheWorkedExample() {
        assertThat(crossover(ring(Protocol.LL), ring(Protocol.LL128))).isCloseTo(3.96e6, within(0.01e6));
        assertThat(crossover(ring(Protocol.LL128), ring(Protocol.SIMPLE))).isCloseTo(32.4e6, within(0.1e6));
    }

    private static double crossover(Candidate a, Candidate b) {
        return (b.latencyUs() - a.latencyUs()) / (1 / (1000 * a.algBwGBps()) - 1 / (1000 * b.algBwGBps()));
    }

    @Test
    void theTunerTakesTheFastestCandidateAndTreeCorrectionsApply() {
        NcclTunerModel.Choice small = D8.choose(1024);
        assertThat(small.protocol()).isEqualTo(Protocol.LL);
        // Tree LL: 6.8 + 2*7*0.6 = 15.2 us > Ring LL 15.0: Ring wins at tiny sizes on one node.
        assertThat(small.algorithm()).isEqualTo(Algorithm.RING);
        assertThat(D8.timeUs(1024, new double[0])).isEqualTo(small.timeUs());
        for (double m = 64; m < 1e10; m *= 2) {
            double t = D8.choose(m).timeUs();
            for (Candidate c : D8.candidates()) {
                assertThat(t).isLessThanOrEqualTo(D8.time(c, m));
            }
        }
    }

    @Test
    void olderVersionsUseTheirOwnConstants() {
        NcclTunerModel old = new NcclTunerModel(Collective.ALL_REDUCE, 8, 1, 90, "NVLINK", 16, 20.0, 20.0, "2.20.5");
        Candidate treeSimple = old.candidates().stream()
                .filter(c -> c.algorithm() == Algorithm.TREE && c.protocol() == Protocol.SIMPLE).findFirst().orElseThrow();
        // 2.19-2.22: baseLat Tree/Simple 0 and hwLat 28 us per intra hop: 2*7*28.
        assertThat(treeSimple.latencyUs()).isCloseTo(392.0, within(1e-9));
        assertThat(NcclTuning.forVersion("2.20.5").tuning().version()).isEqualTo("2.22");
        assertThat(NcclTuning.forVersion("2.26.2+cuda12.8").tuning().version()).isEqualTo("2.27");
        assertThat(NcclTuning.forVersion("2.18.5").tuning().version()).isEqualTo("2.18.5");
        assertThat(NcclTuning.forVersion(null).note()).contains("not stated");
        assertThat(NcclTuning.forVersion("2.31.0").note()).contains("newer");
    }

    @Test
    void rebuildsFromItsConfiguration() {
        NcclTunerModel m = NcclBaseline.of(Collective.ALL_REDUCE,
                new Hardware("NVIDIA H100 80GB HBM3", 16, 2, 8, 2, "NVLink4", "IB-NDR"), "2.26.2", 8, 400.0)
                .model().orElseThrow();
        // 8 x 400 Gb/s over 16 channels is 25 GB/s a channel, more than the 20 GB/s NVLink leg: the ring runs at 20.
        assertThat(m.bwInterGBps()).isCloseTo(20.0, within(1e-9));
        assertThat(m.configuration().model()).isEqualTo(m);
    }

    @Test
    void gpusOutsideNcclsTablesGetNoEstimate() {
        NcclBaseline b = NcclBaseline.of(Collective.ALL_REDUCE,
                new Hardware("AMD Instinct MI300X", 8, 1, 8, 1, "InfinityFabric", null), null, null, null);
        assertThat(b.model()).isEmpty();
        assertThat(b.notes()).anyMatch(n -> n.contains("RCCL"));
    }
}
