package org.ncclharness.calibration.twotier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Placement;

class TwoTierDatasetsTest {

    /** SPEC §3's NVLink figures and the NVSwitch's two hops, as the hardware facts give them. */
    private static final Map<String, Fabric> FABRICS = Map.of(
            "NVLink3", new Fabric("NVLink3", 300, 2), "NVLink4", new Fabric("NVLink4", 450, 2),
            "NVLink5", new Fabric("NVLink5", 900, 2));

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
    void theBundledMetadataFormsTheJointGroupsTheIssueNames() {
        List<DatasetMetadata> metas = ALL.stream().map(Dataset::metadata).toList();
        List<List<String>> groups = JointGroups.of(metas).stream().map(JointGroups.Group::ids).toList();
        assertThat(groups).contains(List.of("mi325x_allreduce_ring_1node_rccl_hisohara",
                "mi325x_allreduce_ring_2node_rccl_hisohara", "mi325x_allreduce_ring_4node_rccl_hisohara",
                "mi325x_allreduce_ring_8node_rccl_hisohara"));
        assertThat(groups).contains(List.of("gb200_allreduce_1440gpu_20rack_coreweave",
                "gb200_allreduce_144gpu_2rack_coreweave", "gb200_allreduce_nvl72_coreweave"));
        assertThat(groups).anySatisfy(g -> assertThat(g).contains("a100_allreduce_8gpu_oci_bmgpu48",
                "a100_allreduce_16gpu_2node_oci_roce"));
        for (List<String> g : groups) {
            assertThat(g).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aJointGroupIsFittedAsOneProblemWithBothForms() {
        List<Dataset> gb200 = ALL.stream().filter(d -> d.id().startsWith("gb200")).toList();
        List<TwoTierDatasetFits.Entry> entries = TwoTierDatasetFits.joint(gb200, n -> Optional.ofNullable(FABRICS.get(n)));
        TwoTierDatasetFits.Entry cw = entries.stream().filter(e -> e.label().contains("coreweave")
                && e.label().startsWith("gb200")).findFirst().orElseThrow();
        assertThat(cw.runs()).hasSize(3);
        assertThat(cw.fits()).extracting(TwoTierFit::form).containsExactly(TwoTierForm.values());
        assertThat(cw.fit(TwoTierForm.HIERARCHICAL).configurations()).hasSize(3);
        assertThat(TwoTierDatasetFits.format(entries)).contains("gb200_allreduce_1440gpu_20rack_coreweave+");
    }

    @Test
    void aMultiDomainDatasetAloneGetsTheSingleDomainPriorOfItsGpuClass() {
        List<Dataset> h100 = ALL.stream().filter(d -> d.id().startsWith("h100_allreduce_32gpu_4node")
                || d.id().startsWith("h100_allreduce_8gpu")).toList();
        List<TwoTierDatasetFits.Entry> entries = TwoTierDatasetFits.single(h100, n -> Optional.ofNullable(FABRICS.get(n)));
        assertThat(entries).hasSize(1);
        TwoTierFit fit = entries.get(0).fit(TwoTierForm.HIERARCHICAL);
        assertThat(fit.priors()).isNotEmpty();
        assertThat(fit.priors()).allSatisfy(p -> assertThat(p.source()).startsWith("h100_allreduce_8gpu"));
        assertThat(entries.get(0).better()).isEmpty(); // one configuration: the two forms are the same line
    }
}
