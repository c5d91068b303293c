package org.ncclharness.calibration.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HardwareFactsTest {

    private final HardwareFacts facts = HardwareFacts.bundled();

    @Test
    void theVocabularyOfTheIssueIsComplete() {
        assertThat(facts.vocabulary()).contains("NVLink2", "NVLink3", "NVLink4", "NVLink5", "PCIe3", "PCIe4",
                "PCIe5", "IB-HDR", "IB-NDR", "IB-XDR", "RoCE-100G", "RoCE-200G", "RoCE-400G", "EFA", "Slingshot11",
                "TCP", "InfinityFabric");
    }

    @Test
    void theSpecFiguresAreTheDataFiguresAndEveryFigureNamesItsSource() {
        assertThat(beta("NVLink5")).isEqualTo(900.0);
        assertThat(beta("NVLink4")).isEqualTo(450.0);
        assertThat(beta("NVLink3")).isEqualTo(300.0);
        assertThat(beta("PCIe4")).isEqualTo(31.5);
        assertThat(beta("IB-NDR")).isEqualTo(50.0);
        assertThat(beta("RoCE-400G")).isEqualTo(50.0);
        for (String name : facts.vocabulary()) {
            Interconnect ic = facts.interconnect(name).orElseThrow();
            assertThat(ic.source()).as(name).isNotBlank();
            assertThat(facts.topologyOf(ic)).as(name).isNotNull();
        }
    }

    @Test
    void tcpHasNoFixedFigureAndSaysSo() {
        Interconnect tcp = facts.interconnect("TCP").orElseThrow();
        assertThat(tcp.betaPhysGBps()).isNull();
        assertThat(tcp.note()).contains("no fixed figure");
    }

    @Test
    void anNvSwitchStepIsTwoHopsAndADirectLinkOne() {
        assertThat(facts.topologyOf(facts.interconnect("NVLink4").orElseThrow()).hopsPerStep()).isEqualTo(2);
        assertThat(facts.topologyOf(facts.interconnect("PCIe4").orElseThrow()).hopsPerStep()).isEqualTo(1);
        assertThat(facts.topologyOf(facts.interconnect("NVLink3-Bridge").orElseThrow()).hopsPerStep()).isEqualTo(1);
        assertThat(facts.topology("NVSwitch").orElseThrow().inNetworkUr()).isEqualTo(0.92);
    }

    @Test
    void onlyTheNetworksJoinHostsAndAFlagInAnotherCaseIsToldItsSpelling() {
        assertThat(facts.vocabulary()).filteredOn(n -> facts.topologyOf(facts.interconnect(n).orElseThrow())
                .betweenHosts()).containsExactly("IB-HDR", "IB-NDR", "IB-XDR", "RoCE-100G", "RoCE-200G", "RoCE-400G",
                "RoCE-800G", "EFA", "Slingshot11", "TCP");
        assertThatThrownBy(() -> facts.interconnectNamed("--inter", "efa"))
                .hasMessageStartingWith("--inter: unknown interconnect efa; did you mean EFA?; known: NVLink2");
        // a name short of the one it can only mean gets it; one short of several gets those it can mean
        assertThatThrownBy(() -> facts.interconnectNamed("--interconnect", "Slingshot"))
                .hasMessageStartingWith("--interconnect: unknown interconnect Slingshot; did you mean Slingshot11?;");
        assertThatThrownBy(() -> facts.interconnectNamed("--inter", "RoCE")).hasMessageStartingWith("--inter: unknown"
                + " interconnect RoCE; did you mean one of RoCE-100G, RoCE-200G, RoCE-400G, RoCE-800G?; known: NVLink2");
        // written as people say them (a new user's tries): without the family, with a space, the family's long name
        assertThatThrownBy(() -> facts.interconnectNamed("--inter", "NDR"))
                .hasMessageStartingWith("--inter: unknown interconnect NDR; did you mean IB-NDR?;");
        assertThatThrownBy(() -> facts.interconnectNamed("--inter", "IB NDR"))
                .hasMessageStartingWith("--inter: unknown interconnect IB NDR; did you mean IB-NDR?;");
        assertThatThrownBy(() -> facts.interconnectNamed("--inter", "infiniband"))
                .hasMessageStartingWith("--inter: unknown interconnect infiniband; did you mean one of IB-HDR, IB-NDR,"
                        + " IB-XDR?;");
        assertThatThrownBy(() -> facts.interconnectNamed("--inter", "ethernet"))
                .hasMessageStartingWith("--inter: unknown interconnect ethernet; known: NVLink2");
    }

    @Test
    void methodAUsesTheH200ProfileAndNoOtherChipHasOne() {
        ChipProfile h200 = facts.chipFor("NVIDIA H200 (ND H200 v5)").orElseThrow();
        assertThat(h200.alphaStepUs()).isEqualTo(8.5);
        assertThat(h200.alphaUs(8)).isCloseTo(59.5, within(1e-12));
        assertThat(facts.chipFor("NVIDIA H100 80GB HBM3")).isEmpty();
        assertThat(facts.chipFor(null)).isEmpty();
    }

    /** NVLS needs an NVSwitch: an HGX H100's NVLink4 can run it, a quad-GH200 board's directly linked NVLink4 not. */
    @Test
    void nvlsIsAFactOfTheSwitchedFabricNotOfTheNvlinkGeneration() {
        Interconnect hgx = facts.interconnect("NVLink4").orElseThrow();
        Interconnect quad = facts.interconnect("NVLink4-Direct").orElseThrow();
        assertThat(hgx.inNetworkReduction()).isEqualTo("NVLS");
        assertThat(facts.topologyOf(hgx).switched()).isTrue();
        assertThat(quad.inNetworkReduction()).isNull();
        assertThat(facts.topologyOf(quad).switched()).isFalse();
        assertThat(facts.topologyOf(quad).hopsPerStep()).isEqualTo(1);
        assertThat(quad.betaPhysGBps()).isEqualTo(hgx.betaPhysGBps());
        // the two-tier calibrator's NVLS prior is the topology's in-network utilisation: none on the quad board
        assertThat(facts.topologyOf(hgx).inNetworkUr()).isEqualTo(0.92);
        assertThat(facts.topologyOf(quad).inNetworkUr()).isNull();
        // every bundled fabric that names an in-network reduction sits behind a switch
        assertThat(facts.vocabulary()).filteredOn(n -> facts.interconnect(n).orElseThrow().inNetworkReduction() != null)
                .allMatch(n -> facts.topologyOf(facts.interconnect(n).orElseThrow()).switched());
    }

    @Test
    void anInNetworkReductionWithoutASwitchIsRejected() {
        Topology direct = new Topology("direct", false, false, 1, null, "test");
        Interconnect wrong = new Interconnect("X", 450.0, "direct", "NVLS", "test", "test");
        assertThatThrownBy(() -> new HardwareFacts(List.of(wrong), List.of(direct), List.of(), 0.95))
                .hasMessage("interconnect X names in-network reduction NVLS on topology direct, which has no switch");
    }

    @Test
    void componentsThatDoNotAddUpAreRejected() {
        ChipProfile bad = new ChipProfile("X", List.of("X"), 8.5, Map.of("c_c2c", 1.0, "c_ddr_r", 1.0,
                "c_ddr_w", 1.0, "c_noc", 1.0, "c_d2d", 1.0), "test");
        assertThatThrownBy(() -> new HardwareFacts(List.of(), List.of(), List.of(bad), 0.95))
                .hasMessageContaining("add up to 7.0");
    }

    private double beta(String name) {
        return facts.interconnect(name).orElseThrow().betaPhysGBps();
    }
}
