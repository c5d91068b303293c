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
        assertThat(run.out()).contains("INFO: no expected curve: no bundled all_reduce run of A100 over IB-HDR at 1 GPU"
                + " per host (the nearest, a100_allreduce_16gpu_2node_ib_azureml_ndv4_jzazure, has 8;")
                .doesNotContain("pass --gpus");
        assertThat(run.out()).contains("WARN: 256 KiB–1 MiB take longer than 2 MiB does");
    }
}
