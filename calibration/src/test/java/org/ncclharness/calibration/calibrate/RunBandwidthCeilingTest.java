package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * The catalogue behind the ceiling: every bundled run across domains whose NICs are stated stays under what any
 * algorithm moves between its domains, so the ceiling holds the fits without contradicting a measurement.
 */
class RunBandwidthCeilingTest {

    private static final HardwareFacts FACTS = HardwareFacts.bundled();

    private static double most(Dataset d) {
        FitPoints p = FitPoints.from(d.sweep(), d.sweep().hardware().ranks());
        return java.util.Arrays.stream(p.busBwGBps()).max().orElse(0);
    }

    @Test
    void everyBundledRunWithStatedNicsStaysUnderItsCeiling() {
        List<Dataset> stated = DatasetCatalog.bundled().all().stream()
                .filter(d -> RunBandwidthCeiling.ceilingGBps(d, FACTS) != null).toList();
        assertThat(stated).hasSizeGreaterThanOrEqualTo(10);
        for (Dataset d : stated) {
            assertThat(most(d)).as(d.id()).isLessThanOrEqualTo(RunBandwidthCeiling.ceilingGBps(d, FACTS));
        }
    }

    @Test
    void theTwoDomainRunsAboveTheRingsLineRateAreWithinWhatATreeMoves() {
        // p4de (4 EFA NICs of 100 Gb/s per host, 50 GB/s) measured 78.3 GB/s: 1.57 times the ring's line rate,
        // under the 1.875 that 2 domains of 8 allow
        Dataset p4de = DatasetCatalog.bundled().get("a100_allreduce_16gpu_2node_aws_p4de_efa");
        assertThat(most(p4de)).isGreaterThan(1.5 * 50);
        assertThat(RunBandwidthCeiling.ceilingGBps(p4de, FACTS)).isEqualTo(50 * 1.875);
        // the run that forced Ring: its line rate itself (8 NDR NICs per host: 400 GB/s)
        Dataset ring = DatasetCatalog.bundled().get("h100_allreduce_16gpu_2node_ib_ndr_ring_ncclTests290_partial");
        assertThat(RunBandwidthCeiling.ceilingGBps(ring, FACTS)).isEqualTo(400);
        // one domain: none
        assertThat(RunBandwidthCeiling.ceilingGBps(DatasetCatalog.bundled().get("a100_allreduce_8gpu_azure_ndv4"),
                FACTS)).isNull();
    }
}
