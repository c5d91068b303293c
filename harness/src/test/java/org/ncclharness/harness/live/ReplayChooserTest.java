package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.SizeList;

/**
 * The replay's choice among the bundled datasets (docs/sweep-and-check.md): most sizes covered, then GPU count, then
 * rows.
 */
class ReplayChooserTest {

    private final List<Dataset> all = DatasetCatalog.bundled().all();
    private final List<Long> mission = SizeList.sizes(1024, 8L << 30, 1 << 20, 2);

    @Test
    void theSameGpuCountWinsAmongTheBestCovered() {
        ReplayChooser.Choice c = ReplayChooser.choose(all, Collective.ALL_REDUCE, mission, 16);
        assertThat(c.dataset().metadata().gpus()).isEqualTo(16);
        assertThat(c.covered()).isEqualTo(24);
        assertThat(c.why()).contains("the same GPU count as the job (16)");
    }

    @Test
    void withoutTheSameCountTheNearestLargerWins() {
        ReplayChooser.Choice c = ReplayChooser.choose(all, Collective.ALL_REDUCE, mission, 3);
        assertThat(c.dataset().metadata().gpus()).isEqualTo(4);
        assertThat(c.why()).contains("nearest larger");
    }

    @Test
    void tiesGoToTheDatasetWithMoreRows() {
        ReplayChooser.Choice c = ReplayChooser.choose(all, Collective.ALL_REDUCE, mission, 8);
        int rows = c.dataset().rows().size();
        assertThat(all.stream().filter(d -> d.collective() == Collective.ALL_REDUCE)
                .filter(d -> d.metadata().gpus() != null && d.metadata().gpus() == 8)
                .filter(d -> !d.metadata().hasFlag("mixed-configurations"))
                .filter(d -> ReplayChooser.covered(d, new java.util.HashSet<>(mission)) == c.covered()))
                .allMatch(d -> d.rows().size() <= rows);
    }

    @Test
    void coverageComesBeforeGpuCount() {
        // 8 B .. 8 GiB: the 16-GPU OCI run starts at 64 B (28 sizes), the 2-GPU Azure run at 8 B (31 sizes).
        List<Dataset> two = List.of(DatasetCatalog.bundled().get("a100_allreduce_16gpu_2node_oci_roce"),
                DatasetCatalog.bundled().get("a100pcie_allreduce_2gpu_1node_nvlinkbridge_azure_nc48v4_graphfile"));
        ReplayChooser.Choice c = ReplayChooser.choose(two, Collective.ALL_REDUCE, SizeList.sizes(8, 8L << 30, 1, 2), 16);
        assertThat(c.dataset().metadata().gpus()).isEqualTo(2);
        assertThat(c.covered()).isEqualTo(31);
    }

    @Test
    void nothingToReplayIsNull() {
        assertThat(ReplayChooser.choose(all, Collective.SEND_RECV, mission, 1)).isNull();
    }

    @Test
    void distanceOrdersSameThenLargerThenSmaller() {
        assertThat(ReplayChooser.distance(8, 8)).isZero();
        assertThat(ReplayChooser.distance(16, 8)).isLessThan(ReplayChooser.distance(4, 8));
        assertThat(ReplayChooser.distance(4, 8)).isLessThan(ReplayChooser.distance(2, 8));
    }
}
