package org.ncclharness.calibration.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;

/** What a domain's NICs carry of each collective's busbw. */
class LineRateTest {

    @Test
    void aRingIsBoundByTheNicsAndAnAllToAllByWhatLeavesItsHost() {
        // 2 hosts of 8 GPUs, 8 NICs at 50 GB/s: a ring's busbw up to 400 GB/s
        assertThat(LineRate.busBwCeilingGBps(Collective.ALL_REDUCE, 16, 8, 400.0)).isEqualTo(400.0);
        assertThat(LineRate.busBwCeilingGBps(Collective.ALL_GATHER, 16, 8, 400.0)).isEqualTo(400.0);
        // an AllToAll sends 8 of its 16 shares off the host and counts 15 of them: 15 x 400 / (8 x 8)
        assertThat(LineRate.busBwCeilingGBps(Collective.ALL_TO_ALL, 16, 8, 400.0)).isCloseTo(93.75, within(1e-12));
        // one GPU per host: every share but its own leaves the host, so the NIC bounds busbw as for a ring
        assertThat(LineRate.busBwCeilingGBps(Collective.ALL_TO_ALL, 4, 1, 50.0)).isCloseTo(50.0, within(1e-12));
        assertThat(LineRate.busBwCeilingGBps(Collective.SEND_RECV, 16, 8, 400.0)).isNull();
        assertThat(LineRate.busBwCeilingGBps(Collective.ALL_REDUCE, 8, 8, 400.0)).as("one domain").isNull();
        assertThat(LineRate.busBwCeilingGBps(Collective.ALL_REDUCE, 16, 8, null)).isNull();
    }

    @Test
    void onlyAReductionAboveTheNetworkIsCalledATreeOrSharp() {
        assertThat(LineRate.aboveNetwork(Collective.ALL_REDUCE)).isEqualTo(LineRate.ABOVE_NETWORK);
        assertThat(LineRate.aboveNetwork(Collective.ALL_TO_ALL)).startsWith("more or faster NICs than stated")
                .doesNotContain("NVLS");
        assertThat(LineRate.aboveNetwork(Collective.ALL_GATHER)).contains("NVLS multicast");
    }
}
