package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.nccl.ChannelCounts;

/**
 * What busbw above the line rate is put down to: the log's NVLS channel count, where it prints one, decides NVLS
 * before the interconnect's kind does.
 */
class InNetworkFlagTest {

    private static Interconnect named(String name) {
        return HardwareFacts.bundled().interconnect(name).orElseThrow();
    }

    private static Optional<ChannelCounts> nvls(Integer channels) {
        return Optional.of(new ChannelCounts(8, 16, 0, channels, 16, 2));
    }

    @Test
    void withoutTheCountTheInterconnectsKindDecidesAsBefore() {
        assertThat(SingleTierCalibrator.inNetworkFlag(named("NVLink4"), false, Optional.empty())).isEqualTo("NVLS");
        assertThat(SingleTierCalibrator.inNetworkFlag(named("NVLink3"), false, Optional.empty()))
                .isEqualTo("ABOVE-PEAK");
        assertThat(SingleTierCalibrator.inNetworkFlag(named("IB-NDR"), true, Optional.empty())).isEqualTo("ABOVE-PEAK");
    }

    /** Busbw above the line rate on a quad-GH200 board (NVLink4 without an NVSwitch) is never put down to NVLS. */
    @Test
    void aQuadGh200BoardIsNotFlaggedNvlsAndAnHgxH100Is() {
        assertThat(SingleTierCalibrator.inNetworkFlag(named("NVLink4-Direct"), false, Optional.empty()))
                .isEqualTo("ABOVE-PEAK");
        assertThat(SingleTierCalibrator.inNetworkFlag(named("NVLink4"), false, Optional.empty())).isEqualTo("NVLS");
    }

    @Test
    void nvlsChannelsInTheLogAreNvlsWhateverTheInterconnectSuggests() {
        assertThat(SingleTierCalibrator.inNetworkFlag(named("NVLink3"), false, nvls(16))).isEqualTo("NVLS");
        assertThat(SingleTierCalibrator.inNetworkFlag(named("NVLink4"), false, nvls(0))).isEqualTo("ABOVE-PEAK");
        // a network on one host carried nothing, whatever NCCL set up
        assertThat(SingleTierCalibrator.inNetworkFlag(named("IB-NDR"), true, nvls(16))).isEqualTo("ABOVE-PEAK");
        // a count of no NVLS says nothing about SHARP in the network
        assertThat(SingleTierCalibrator.inNetworkFlag(named("IB-NDR"), false, nvls(0))).isEqualTo("SHARP");
        // an older NCCL prints no nvls count: the kind decides
        assertThat(SingleTierCalibrator.inNetworkFlag(named("NVLink4"), false,
                Optional.of(new ChannelCounts(8, 16, null, null, 16, 2)))).isEqualTo("NVLS");
    }
}
