package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/**
 * A real 2-host H100 run that forced NCCL_ALGO=RING (NVIDIA/nccl-tests#319, NCCL INFO lines and the table in one
 * paste): the network's NICs are named where its speed is asked for, the algorithm envelope has no Tree, and
 * check's expected curve is the bundled run that forced Ring too.
 */
class CalibrateForcedRingTest {

    @TempDir
    Path dir;

    private Path log() throws IOException {
        List<String> all = Files.readAllLines(Path.of("../calibration/src/test/resources/logs/ncclinfo/"
                + "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt"));
        Path log = dir.resolve("ring.log");
        Files.write(log, all.subList(all.indexOf("=== RAW") + 1, all.indexOf("=== END RAW")));
        return log;
    }

    @Test
    void theForcedRingShapesTheModelAndTheReference() throws IOException {
        Path log = log();
        CliRun bare = CliRun.of("calibrate", log.toString());
        assertThat(bare.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(bare.err()).contains("the network between them is not stated (its NET/IB lines name 8 InfiniBand"
                + " NICs per host, not their speed: one of IB-HDR, IB-NDR, IB-XDR)");

        CliRun cal = CliRun.of("calibrate", log.toString(), "--interconnect", "IB-NDR", "--verbose");
        assertThat(cal.exitCode()).as(cal.err()).isZero();
        assertThat(cal.out()).contains("the run forced NCCL_ALGO=RING: the algorithm envelope takes Ring alone");
        String picks = cal.out().lines().filter(l -> l.matches("#\\s+picks .*")).findFirst().orElseThrow();
        assertThat(picks).contains("Ring/").doesNotContain("Tree/");

        CliRun check = CliRun.of("check", log.toString(), "--interconnect", "IB-NDR");
        assertThat(check.out()).contains("# reference (another cluster's run): bundled dataset"
                + " h100_allreduce_16gpu_2node_ib_ndr_ring_minctas24_ncclTests309_gjaion");
    }
}
