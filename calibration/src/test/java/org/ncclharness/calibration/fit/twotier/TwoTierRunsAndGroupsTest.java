package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Placement;

class TwoTierRunsAndGroupsTest {

    private static final List<Dataset> ALL = DatasetCatalog.bundled().all();

    @Test
    void aDatasetBecomesARunAtItsConfigurationWithItsOutOfPlaceTimes() {
        Dataset d = DatasetCatalog.bundled().get("h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion");
        TwoTierRuns.Extracted x = TwoTierRuns.of(d.sweep(), d.id());
        assertThat(x.run().config()).isEqualTo(new TwoTierConfig(4, 8));
        assertThat(x.half()).isEqualTo(Placement.OUT_OF_PLACE);
        assertThat(x.run().points()).isEqualTo((int) d.rows().stream().filter(r -> r.outOfPlace().hasTime()).count());
        assertThat(x.run().timeUs()[0]).isEqualTo(d.rows().get(0).outOfPlace().timeUs());
    }

    @Test
    void aSweepWithoutItsConfigurationOrOfAnotherCollectiveIsRefused() {
        Dataset d = DatasetCatalog.bundled().get("h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion");
        assertThatThrownBy(() -> TwoTierRuns.of(d.sweep().withHardware(Hardware.unknown()), "x.txt"))
                .isInstanceOf(InputException.class).hasMessageContaining("x.txt: the two-tier fit needs the configuration");
        Dataset ag = ALL.stream().filter(a -> a.metadata().collective().equals("all_gather")).findFirst().orElseThrow();
        assertThatThrownBy(() -> TwoTierRuns.of(ag.sweep(), ag.id(), new TwoTierConfig(2, 8)))
                .isInstanceOf(InputException.class).hasMessageContaining("describe AllReduce");
    }

    @Test
    void everyBundledJointGroupNamesExistingAllReduceRunsOfOneGpuClassAtSeveralConfigurations() {
        List<JointGroups.Group> groups = JointGroups.bundled();
        assertThat(groups).extracting(JointGroups.Group::name)
                .contains("mi325x-aac11", "gb200-coreweave", "a100-oci-bm-gpu4.8");
        for (JointGroups.Group g : groups) {
            List<DatasetMetadata> ms = g.ids().stream().map(id -> DatasetCatalog.bundled().get(id).metadata()).toList();
            assertThat(ms).as(g.name()).allSatisfy(m -> assertThat(m.collective()).isEqualTo("all_reduce"));
            assertThat(ms.stream().map(m -> JointGroups.gpuClass(m.gpuModel())).distinct()).as(g.name()).hasSize(1);
            assertThat(ms.stream().map(DatasetMetadata::intra).distinct()).as(g.name()).hasSize(1);
            assertThat(ms.stream().map(m -> m.domains() + "x" + m.domainSize()).distinct().count()).as(g.name())
                    .isGreaterThanOrEqualTo(2);
            assertThat(ms).as(g.name()).anySatisfy(m -> assertThat(m.multiDomain()).isTrue());
            assertThat(g.why()).isNotBlank();
        }
    }

    @Test
    void theGpuClassIgnoresVendorBrandAndVariant() {
        assertThat(JointGroups.gpuClass("NVIDIA H100 80GB HBM3")).isEqualTo("H100");
        assertThat(JointGroups.gpuClass("NVIDIA A100-SXM4-40GB")).isEqualTo("A100");
        assertThat(JointGroups.gpuClass("AMD Instinct MI325X")).isEqualTo("MI325X");
        assertThat(JointGroups.gpuClass("GB200")).isEqualTo(JointGroups.gpuClass("NVIDIA GB200"));
        assertThat(JointGroups.gpuClass("NVIDIA H20")).isNotEqualTo(JointGroups.gpuClass("NVIDIA H200"));
    }
}
