package org.ncclharness.calibration.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.LatencyRule;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;

/** A prediction moved to another configuration: what each kind of model says on the way, and what it refuses. */
class PredictionModelTest {

    private static PredictionModel of(CostModel m, double[] theta, int ranks, int nodes) {
        return new PredictionModel("m", m, theta, "test", ranks, nodes, 1e3, 1e9, List.of(), List.of());
    }

    @Test
    void aTwoTierModelRefusesGpusThatAreNotWholeDomainsAndSaysWhatToPass() {
        PredictionModel pm = of(new TwoTierCostModel(TwoTierForm.FLAT_RING, new TwoTierConfig(2, 8), 450, 2),
                new double[] {0.8, 45, 0.5, 2, 5}, 16, 2);
        assertThatThrownBy(() -> pm.at(16, 4)).hasMessage("16 GPUs are not 4 domains of 8 GPUs (the calibrated"
                + " domain size); for 4 domains pass the GPU count 32");
        assertThatThrownBy(() -> pm.at(12, null)).hasMessage("12 GPUs are not whole domains of 8 GPUs (the calibrated"
                + " domain size)");
        PredictionModel moved = pm.at(32, null);
        assertThat(moved.model().domains()).contains(new TwoTierConfig(4, 8));
        assertThat(moved.notes()).containsExactly("4 domains of 8 GPUs lie outside what was calibrated (2x8): per-tier"
                + " parameters carried over", "N = 32 lies outside what was calibrated (N = 16): per-hop and per-step"
                + " parameters carried over");
    }

    @Test
    void anotherNodeCountIsSaidOfAOneTierModelAndOfNcclsTables() {
        PredictionModel single = of(new SingleTierModel(Collective.ALL_REDUCE, 8, 1, LatencyRule.PIPELINE),
                new double[] {1, 100}, 8, 1);
        assertThat(single.at(8, 2).notes()).containsExactly("2 nodes lie outside what was calibrated (1 node): this"
                + " single-tier model has no term for another tier");
        PredictionModel nccl = of(new NcclTunerModel(Collective.ALL_REDUCE, 8, 1, 90, "NVLINK", 16, 20, 20, "2.26.2"),
                new double[0], 8, 1);
        assertThat(nccl.at(16, 2).notes()).containsExactly("N = 16 lies outside what was calibrated (N = 8): per-hop"
                + " and per-step parameters carried over", "2 nodes lie outside what was calibrated (1 node)");
        assertThatThrownBy(() -> nccl.at(12, 5)).hasMessage("12 GPUs do not split evenly over 5 nodes");
    }
}
