package org.ncclharness.calibration.fit.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Placement;

/** What any algorithm moves between domains: the ring's line rate, lifted only by fewer bytes over the network. */
class BandwidthCeilingTest {

    private static final Collective AR = Collective.ALL_REDUCE;

    @Test
    void aReduceScatterAndAllGatherBetweenDomainsLiftTheRingsLineRateMostOnTwoDomains() {
        // 2 domains of 8: each domain's NICs carry 2(d-1)/d = 1 of its data where the ring's busbw counts 2·15/16
        assertThat(BandwidthCeiling.of(400.0, AR, 16, 2, false, false)).isCloseTo(750, within(1e-9));
        // 128 domains of 4 (the GH200 512-GPU run): almost nothing
        assertThat(BandwidthCeiling.of(100.0, AR, 512, 128, false, false))
                .isCloseTo(100.0 * 511 * 128 / (512 * 127), within(1e-9)).isLessThan(100.7);
        assertThat(BandwidthCeiling.of(50.0, Collective.ALL_GATHER, 16, 2, false, false)).isCloseTo(93.75,
                within(1e-9));
    }

    @Test
    void onlyASwitchThatReducesDoublesItAndARingForcedOrABroadcastStaysAtTheLineRate() {
        assertThat(BandwidthCeiling.of(400.0, AR, 16, 2, false, true)).isCloseTo(750, within(1e-9));
        assertThat(BandwidthCeiling.of(400.0, AR, 512, 128, false, true)).isCloseTo(2 * 400.0 * 511 / 512,
                within(1e-9));
        assertThat(BandwidthCeiling.of(400.0, AR, 16, 2, true, true)).isEqualTo(400);
        assertThat(BandwidthCeiling.of(400.0, Collective.BROADCAST, 16, 2, false, false)).isEqualTo(400);
        assertThat(BandwidthCeiling.of(null, AR, 16, 2, false, false)).isNull();
        assertThat(BandwidthCeiling.of(400.0, AR, 8, 1, false, false)).isNull();
    }

    @Test
    void aCeilingSomeMeasuredSizePassedBoundsNothing() {
        FitPoints run = points(90, 120);
        assertThat(BandwidthCeiling.unpassed(130.0, List.of(run))).isEqualTo(130);
        assertThat(BandwidthCeiling.unpassed(110.0, List.of(run))).isNull();
        assertThat(BandwidthCeiling.unpassed((Double) null, List.of(run))).isNull();
        // jointly: the lowest, where each run stays under its own
        assertThat(BandwidthCeiling.unpassed(List.of(200.0, 130.0), List.of(points(150), run))).isEqualTo(130);
        assertThat(BandwidthCeiling.unpassed(List.of(140.0, 130.0), List.of(points(150), run))).isNull();
        assertThat(BandwidthCeiling.unpassed(Arrays.asList(200.0, null), List.of(points(150), run))).isNull();
    }

    private static FitPoints points(double... busBwGBps) {
        double[] bytes = new double[busBwGBps.length];
        double[] t = new double[busBwGBps.length];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = 1 << (20 + i);
            t[i] = bytes[i] / (busBwGBps[i] * 1e3);
        }
        return new FitPoints(bytes, t, busBwGBps.clone(), Placement.OUT_OF_PLACE, false, List.of());
    }
}
