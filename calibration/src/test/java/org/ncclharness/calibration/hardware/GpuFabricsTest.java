package org.ncclharness.calibration.hardware;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.datasets.DatasetMetadata;

class GpuFabricsTest {

    private final GpuFabrics fabrics = GpuFabrics.bundled();

    @Test
    void sxmNamesTellTheirNvlinkAndPcieNamesTellNothing() {
        assertThat(fabrics.intraFor("NVIDIA H100 80GB HBM3")).contains("NVLink4");
        assertThat(fabrics.intraFor("NVIDIA H200")).contains("NVLink4");
        assertThat(fabrics.intraFor("NVIDIA H20")).contains("NVLink4");
        // a multi-GH200 node is a quad board whose GPUs link directly (no NVSwitch, so no NVLS)
        assertThat(fabrics.intraFor("NVIDIA GH200 120GB")).contains("NVLink4-Direct");
        assertThat(fabrics.intraFor("NVIDIA A100-SXM4-80GB")).contains("NVLink3");
        assertThat(fabrics.intraFor("NVIDIA B200")).contains("NVLink5");
        assertThat(fabrics.intraFor("NVIDIA GB200")).contains("NVLink5");
        // Blackwell Ultra (a GB300 log of OCI BM.GPU.GB300.4 names "NVIDIA GB300"); HGX B300
        assertThat(fabrics.intraFor("NVIDIA GB300")).contains("NVLink5");
        assertThat(fabrics.intraFor("NVIDIA B300 SXM6 AC")).contains("NVLink5");
        // SXM3 is the DGX-2 / HGX-2 board's: behind an NVSwitch, unlike the SXM2 cube-mesh
        assertThat(fabrics.intraFor("Tesla V100-SXM3-32GB")).contains("NVLink2-Switch");
        assertThat(fabrics.intraFor("Tesla V100-SXM2-16GB")).contains("NVLink2");
        assertThat(fabrics.intraFor("AMD Instinct MI300X")).contains("InfinityFabric");
        assertThat(fabrics.intraFor("NVIDIA H100 PCIe")).isEmpty();
        assertThat(fabrics.intraFor("NVIDIA H200 NVL")).isEmpty();
        assertThat(fabrics.intraFor("NVIDIA A100 80GB PCIe")).isEmpty();
        assertThat(fabrics.intraFor("NVIDIA GeForce RTX 4090")).isEmpty();
        assertThat(fabrics.intraFor(null)).isEmpty();
    }

    /** Where a bundled dataset names both its GPU and its NVLink, the rule agrees with what its source said. */
    @Test
    void agreesWithEveryBundledDatasetThatStatesBoth() {
        int compared = 0;
        for (var d : DatasetCatalog.fromDirectory(Path.of("../datasets")).all()) {
            DatasetMetadata m = d.metadata();
            var inferred = fabrics.intraFor(m.gpuModel());
            if (inferred.isPresent() && m.intra() != null) {
                assertThat(inferred).as(m.id()).contains(m.intra());
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(20);
    }
}
