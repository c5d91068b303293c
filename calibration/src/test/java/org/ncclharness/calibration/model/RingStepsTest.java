package org.ncclharness.calibration.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.RingSteps.Pattern;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Each collective's steps, network steps and bus share against NCCL's own formulas (src/graph/tuning.cc,
 * ncclTopoTuneModel), restated here as NCCL writes them, over configurations from 1 × 2 to 64 × 8.
 */
class RingStepsTest {

    private static final int[] DOMAINS = {1, 2, 3, 4, 16, 64};
    private static final int[] PER_DOMAIN = {1, 2, 4, 8};

    /** Every configuration of {@link #DOMAINS} x {@link #PER_DOMAIN} with two ranks at least. */
    private static List<TwoTierConfig> configs() {
        List<TwoTierConfig> out = new ArrayList<>();
        for (int d : DOMAINS) {
            for (int g : PER_DOMAIN) {
                if (d * g >= 2) {
                    out.add(new TwoTierConfig(d, g));
                }
            }
        }
        return out;
    }

    /** NCCL's nsteps: AllReduce 2(nRanks−1), ReduceScatter and AllGather nRanks−1, the rest nRanks. */
    private static int ncclSteps(Collective c, int nRanks) {
        return c == Collective.ALL_REDUCE ? 2 * (nRanks - 1)
                : c == Collective.REDUCE_SCATTER || c == Collective.ALL_GATHER ? nRanks - 1 : nRanks;
    }

    /** NCCL's nInterSteps of a ring: 0 on one node, 2(nNodes−1) for AllReduce, nNodes−1 otherwise. */
    private static int ncclInterSteps(Collective c, int nNodes) {
        return nNodes == 1 ? 0 : c == Collective.ALL_REDUCE ? 2 * (nNodes - 1) : nNodes - 1;
    }

    @Test
    void theRingCollectivesTakeNcclsStepsAndNetworkSteps() {
        for (Collective c : new Collective[] {Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER}) {
            for (TwoTierConfig cfg : configs()) {
                Pattern p = RingSteps.of(c);
                assertThat(p.steps(cfg.ranks())).as("%s at %s", c, cfg.label())
                        .isEqualTo(ncclSteps(c, cfg.ranks()));
                assertThat(p.netSteps(cfg)).as("%s at %s", c, cfg.label()).isEqualTo(ncclInterSteps(c, cfg.domains()));
                // NCCL turns a ring's bus bandwidth into the algorithm's by nRanks/nsteps: the bus factor is its
                // inverse, and every ring step crosses the slower tier with it
                assertThat(p.busCoefficient(c, cfg)).as("%s at %s", c, cfg.label())
                        .isCloseTo((double) ncclSteps(c, cfg.ranks()) / cfg.ranks(), within(1e-12))
                        .isCloseTo(c.busFactor(cfg.ranks()), within(1e-12));
            }
        }
    }

    @Test
    void broadcastAndReduceAreAPipelinedChainAtOneLinksBandwidth() {
        for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            for (TwoTierConfig cfg : configs()) {
                Pattern p = RingSteps.of(c);
                // N-1 hops from the root to the chain's end (NCCL's nsteps counts N), d-1 of them across domains
                assertThat(p.steps(cfg.ranks())).isEqualTo(ncclSteps(c, cfg.ranks()) - 1);
                assertThat(p.netSteps(cfg)).isEqualTo(ncclInterSteps(c, cfg.domains()));
                // NCCL's nRanks/nsteps = 1: the algorithm bandwidth is the bus bandwidth, one link's
                assertThat(p.busCoefficient(c, cfg)).isEqualTo((double) cfg.ranks() / ncclSteps(c, cfg.ranks()))
                        .isEqualTo(1.0);
            }
        }
    }

    @Test
    void allToAllIsPeerExchangesWithOtherDomainsBytesOverTheNetwork() {
        Pattern p = RingSteps.of(Collective.ALL_TO_ALL);
        assertThat(p).isEqualTo(Pattern.PEER_EXCHANGE).isEqualTo(RingSteps.of(Collective.ALL_TO_ALL_V));
        TwoTierConfig twoOfEight = new TwoTierConfig(2, 8);
        assertThat(p.steps(16)).isEqualTo(15);
        // 8 of the 15 peers are on the other node, and 8/16 of a rank's bytes go to them
        assertThat(p.netSteps(twoOfEight)).isEqualTo(8);
        assertThat(p.busCoefficient(Collective.ALL_TO_ALL, twoOfEight)).isEqualTo(0.5);
        // on one domain every byte moves over its links: nccl-tests' (N-1)/N
        TwoTierConfig one = new TwoTierConfig(1, 8);
        assertThat(p.netSteps(one)).isZero();
        assertThat(p.busCoefficient(Collective.ALL_TO_ALL, one)).isEqualTo(7.0 / 8);
        // one GPU per domain: every peer is remote, as on a ring
        TwoTierConfig sixteenOfOne = new TwoTierConfig(16, 1);
        assertThat(p.netSteps(sixteenOfOne)).isEqualTo(15);
        assertThat(p.busCoefficient(Collective.ALL_TO_ALL, sixteenOfOne))
                .isEqualTo(Collective.ALL_TO_ALL.busFactor(16));
        assertThat(p.treeCandidate()).isFalse();
    }

    @Test
    void onlyAllReduceHasNcclsTreeAndEveryKnownCollectiveHasAPattern() {
        assertThat(Arrays.stream(Collective.values()).filter(Collective::known)
                .filter(c -> RingSteps.of(c).treeCandidate())).containsExactly(Collective.ALL_REDUCE);
        assertThatThrownBy(() -> RingSteps.of(Collective.UNKNOWN)).isInstanceOf(IllegalArgumentException.class);
        assertThat(RingSteps.of(Collective.HYPERCUBE).steps(16)).isEqualTo(4);
        assertThat(RingSteps.of(Collective.HYPERCUBE).netSteps(new TwoTierConfig(4, 4))).isEqualTo(2);
        assertThat(RingSteps.of(Collective.SEND_RECV).netSteps(new TwoTierConfig(4, 4))).isEqualTo(1);
    }
}
