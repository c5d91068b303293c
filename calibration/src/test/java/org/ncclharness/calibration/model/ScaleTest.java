package org.ncclharness.calibration.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;

/** Every kind of model moves to a scale as the same kind, or says in a typed reason why it cannot. */
class ScaleTest {

    private static final TwoTierCostModel TWO_TIER = new TwoTierCostModel(TwoTierForm.HIERARCHICAL,
            new TwoTierConfig(2, 8), 450, 2);
    private static final AlgorithmEnvelopeModel ALGORITHMS = new AlgorithmEnvelopeModel(Collective.ALL_REDUCE,
            new TwoTierConfig(2, 8), 1);
    private static final NcclTunerModel NCCL = new NcclTunerModel(Collective.ALL_REDUCE, 16, 2, 90, "NVLINK", 16, 20,
            20, "2.26.2");

    @Test
    void aModelAcrossDomainsKeepsItsDomainSizeUnlessTheScaleGivesOne() {
        assertThat(TWO_TIER.at(Scale.gpus(32)).config()).isEqualTo(new TwoTierConfig(4, 8));
        assertThat(ALGORITHMS.at(Scale.gpus(32, 4)).config()).isEqualTo(new TwoTierConfig(4, 8));
        assertThat(ALGORITHMS.at(Scale.of(new TwoTierConfig(4, 4)))).isEqualTo(
                new AlgorithmEnvelopeModel(Collective.ALL_REDUCE, new TwoTierConfig(4, 4), 1));
        assertThat(TWO_TIER.at(Scale.gpus(32))).isEqualTo(new TwoTierCostModel(TwoTierForm.HIERARCHICAL,
                new TwoTierConfig(4, 8), 450, 2));
    }

    @Test
    void gpusThatAreNotWholeDomainsAreRefusedWithTheDomainSize() {
        assertThatThrownBy(() -> TWO_TIER.at(Scale.gpus(12))).isInstanceOfSatisfying(ScaleRefused.class, e -> {
            assertThat(e.reason()).isEqualTo(ScaleRefused.Reason.NOT_WHOLE_DOMAINS);
            assertThat(e.size()).isEqualTo(8);
            assertThat(e).hasMessage("12 GPUs are not whole domains of 8 GPUs");
        });
        assertThatThrownBy(() -> ALGORITHMS.at(Scale.gpus(16, 4))).isInstanceOfSatisfying(ScaleRefused.class,
                e -> assertThat(e).hasMessage("16 GPUs are not 4 domains of 8 GPUs"));
    }

    @Test
    void ncclsTablesKeepTheirNodesUnlessTheScaleGivesOthersAndRefuseAnUnevenSplit() {
        assertThat(NCCL.at(Scale.gpus(32))).extracting(NcclTunerModel::ranks, NcclTunerModel::nodes)
                .containsExactly(32, 2);
        assertThat(NCCL.at(Scale.gpus(32, 4)).nodes()).isEqualTo(4);
        assertThatThrownBy(() -> NCCL.at(Scale.gpus(12, 5))).isInstanceOfSatisfying(ScaleRefused.class, e -> {
            assertThat(e.reason()).isEqualTo(ScaleRefused.Reason.UNEVEN_OVER_HOSTS);
            assertThat(e.size()).isEqualTo(5);
            assertThat(e).hasMessage("12 GPUs do not split evenly over 5 nodes");
        });
    }

    @Test
    void aOneTierModelTakesTheGpusAlone() {
        SingleTierModel s = new SingleTierModel(Collective.ALL_REDUCE, 8, 2, LatencyRule.PIPELINE);
        assertThat(s.at(Scale.gpus(64, 8))).isEqualTo(new SingleTierModel(Collective.ALL_REDUCE, 64, 2,
                LatencyRule.PIPELINE));
        assertThat(new ProtocolEnvelopeModel(Collective.ALL_GATHER, 8, 1).at(Scale.gpus(16)).ranks()).isEqualTo(16);
    }

    @Test
    void aDomainSizeNeedsTheDomainsItMakesUp() {
        assertThatThrownBy(() -> new Scale(16, null, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Scale(16, 4, 8)).isInstanceOf(IllegalArgumentException.class);
    }
}
