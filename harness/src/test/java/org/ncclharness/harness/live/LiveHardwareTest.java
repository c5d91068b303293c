package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Hardware;

class LiveHardwareTest {

    @Test
    void oneHostWithoutAnInterconnectTakesItFromTheGpuNameAndSaysSo() {
        List<String> heading = new ArrayList<>();
        Hardware hw = LiveHardware.of("NVIDIA H100 80GB HBM3", 8, 1, null, heading);
        assertThat(hw).isEqualTo(new Hardware("NVIDIA H100 80GB HBM3", 8, 1, 8, 1, "NVLink4", null));
        assertThat(heading).containsExactly("# interconnect NVLink4 taken from the GPU name NVIDIA H100 80GB HBM3"
                + " (--interconnect overrides it)");
    }

    @Test
    void aNamedInterconnectWinsAndNothingIsSaid() {
        List<String> heading = new ArrayList<>();
        Hardware hw = LiveHardware.of("NVIDIA H100 80GB HBM3", 8, 1, "NVLink4-Bridge", heading);
        assertThat(hw.intra()).isEqualTo("NVLink4-Bridge");
        assertThat(heading).isEmpty();
    }

    @Test
    void aPcieCardIsNotGuessed() {
        List<String> heading = new ArrayList<>();
        assertThat(LiveHardware.of("NVIDIA H100 PCIe", 2, 1, null, heading).intra()).isNull();
        assertThat(heading).isEmpty();
    }

    @Test
    void acrossHostsTheNamedOneIsTheNetworkAndTheDomainComesFromTheName() {
        List<String> heading = new ArrayList<>();
        Hardware hw = LiveHardware.of("NVIDIA H200", 16, 2, "IB-NDR", heading);
        assertThat(hw).isEqualTo(new Hardware("NVIDIA H200", 16, 2, 8, 2, "NVLink4", "IB-NDR"));
        assertThat(heading).containsExactly("# --interconnect IB-NDR taken as the network between the 2 hosts; inside a"
                + " host NVLink4 (from the GPU name NVIDIA H200)");
    }

    @Test
    void acrossHostsWithoutANamedNetworkNoTierIsGuessed() {
        // a multi-host sweep is bounded by the network between its hosts: not known, no tier to judge against
        List<String> heading = new ArrayList<>();
        Hardware hw = LiveHardware.of("NVIDIA H200", 16, 2, null, heading);
        assertThat(hw).isEqualTo(new Hardware("NVIDIA H200", 16, 2, 8, 2, null, null));
        assertThat(heading).isEmpty();
    }
}
