package org.ncclharness.harness.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;

/**
 * A real 2-host run of one A100 PCIe per host over HDR (NVIDIA/nccl-tests#293): no bundled run has one GPU per host
 * over IB-HDR, and check says that, rather than advising a --gpus that describes another run.
 */
class CheckOneGpuPerHostTest {

    @TempDir
    Path dir;

    @Test
    void theMissingExpectedCurveIsExplainedByTheGpusPerHost() throws Exception {
        List<String> all = Files.readAllLines(Path.of("../calibration/src/test/resources/logs/ncclinfo/"
                + "ib_hdr_gdr_sys_shm_disabled_1gpu_per_host_nccl2215_tests293.txt"));
        Path log = dir.resolve("293.log");
        Files.write(log, all.subList(all.indexOf("=== RAW") + 1, all.indexOf("=== END RAW")));
        CliRun run = CliRun.of("check", log.toString(), "--interconnect", "IB-HDR");
        assertThat(run.out()).containsPattern("INFO: no reference \\(another cluster's run\\): no bundled all_reduce run of A100 over IB-HDR at"
                + " 1 GPU per host \\(the nearest, a100_allreduce_\\w+, has 8;")
                .doesNotContain("pass --gpus");
        assertThat(run.out()).contains("WARN: 256 KiB–1 MiB take longer than 2 MiB does");
    }

    /**
     * A real run of 10 hosts of one H100 each (xxrjun/nccl-tests-cluster): the nearest bundled H100 runs have 8 per
     * host, and their picked model was once moved to this run whatever its family, so check expected 469 GB/s of
     * hosts whose one NIC each carries 49. Now no model is moved to another count per host.
     */
    @Test
    void noModelIsMovedToAnotherCountPerHost() {
        CliRun run = CliRun.of("check", "../calibration/src/test/resources/logs/real/multihost_h100_10x1_ib_xxrjun.txt",
                "--interconnect", "IB-NDR");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("INFO: no reference \\(another cluster's run\\): no bundled all_reduce run of H100 over IB-NDR at"
                + " 1 GPU per host \\(the nearest, h100_allreduce_\\w+, has 8;")
                .doesNotContain("of the reference (another cluster's run");
    }
}
