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
    void aJointGroupIsFittedAsOneProblemWithBothForms() {
        List<Dataset> gb200 = ALL.stream().filter(d -> d.id().startsWith("gb200")).toList();
        List<TwoTierDatasetFits.Entry> entries = TwoTierDatasetFits.joint(gb200, n -> Optional.ofNullable(FABRICS.get(n)));
        TwoTierDatasetFits.Entry cw = entries.stream().filter(e -> e.label().equals("gb200-coreweave")).findFirst()
                .orElseThrow();
        assertThat(cw.runs()).hasSize(3);
        assertThat(cw.fits()).extracting(TwoTierFit::form).containsExactly(TwoTierForm.values());
        assertThat(cw.fit(TwoTierForm.HIERARCHICAL).configurations()).hasSize(3);
        assertThat(TwoTierDatasetFits.format(entries)).contains("gb200-coreweave");
        assertThat(TwoTierDatasetFits.markdown(entries)).contains("| gb200-coreweave | 1x72, 2x64, 20x72 |");
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
