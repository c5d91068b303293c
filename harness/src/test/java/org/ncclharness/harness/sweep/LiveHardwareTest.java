package org.ncclharness.harness.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.hardware.GpuFabrics;
import org.ncclharness.calibration.measure.Hardware;

class LiveHardwareTest {

    private final GpuFabrics fabrics = GpuFabrics.bundled();

    @Test
    void oneHostWithoutAnInterconnectTakesItFromTheGpuNameAndSaysSo() {
        List<String> heading = new ArrayList<>();
        Hardware hw = LiveHardware.of("NVIDIA H100 80GB HBM3", 8, 1, null, fabrics, heading);
        assertThat(hw).isEqualTo(new Hardware("NVIDIA H100 80GB HBM3", 8, 1, 8, 1, "NVLink4", null));
        assertThat(heading).singleElement().asString().startsWith("# interconnect NVLink4 taken from the GPU name");
    }

    @Test
    void aNamedInterconnectWinsAndNothingIsSaid() {
        List<String> heading = new ArrayList<>();
        Hardware hw = LiveHardware.of("NVIDIA H100 80GB HBM3", 8, 1, "NVLink4-Bridge", fabrics, heading);
        assertThat(hw.intra()).isEqualTo("NVLink4-Bridge");
        assertThat(heading).isEmpty();
    }

    @Test
    void aPcieCardIsNotGuessed() {
        List<String> heading = new ArrayList<>();
        assertThat(LiveHardware.of("NVIDIA H100 PCIe", 2, 1, null, fabrics, heading).intra()).isNull();
        assertThat(heading).isEmpty();
    }

    @Test
    void acrossHostsTheNamedOneIsTheNetworkAndTheDomainComesFromTheName() {
        List<String> heading = new ArrayList<>();
        Hardware hw = LiveHardware.of("NVIDIA H200", 16, 2, "IB-NDR", fabrics, heading);
        assertThat(hw).isEqualTo(new Hardware("NVIDIA H200", 16, 2, 8, 2, "NVLink4", "IB-NDR"));
        assertThat(heading).singleElement().asString().contains("NVLink domain interconnect NVLink4");
    }
}
