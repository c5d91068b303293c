package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flags that contradict each other are refused in one line naming both, before any work or any output. */
class ContradictoryFlagsTest {

    private static void refused(CliRun r, String... words) {
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
        for (String w : words) {
            assertThat(r.err()).contains(w);
        }
    }

    @Test
    void aStepFactorAndAStepSizeTogether() {
        refused(CliRun.of("sweep", "-b", "1K", "-e", "1M", "-f", "2", "-i", "1M"), "-f 2", "-i 1M", "contradict");
    }

    @Test
    void everyNcclTestsLetterIsParsedAndOnlyDeviceKernelsAreRefused() {
        refused(CliRun.of("sweep", "-D", "1", "-b", "1K", "-e", "1M"), "not offered: -D 1", "org.bytedeco:cuda 13.3",
                "nccl_device.h");
        refused(CliRun.of("sweep", "-V", "0", "-b", "1K", "-e", "1M"), "invalid -V 0", "1 to 128");
        refused(CliRun.of("sweep", "-x", "3", "-b", "1K", "-e", "1M"), "invalid -x 3", "2 (zero)");
        refused(CliRun.of("sweep", "-u", "-1", "-b", "1K", "-e", "1M"), "invalid -u -1");
        // what runs where the loaded NCCL has it (here: a replay, which needs none of it)
        assertThat(CliRun.of("sweep", "-x", "1", "-D", "0", "-V", "16", "-u", "3", "-b", "1K", "-e", "4K",
                "--no-calibrate").exitCode()).isZero();
        assertThat(CliRun.of("sweep", "--version").out()).startsWith("nccl-harness");
    }

    @Test
    void aFailThresholdAboveTheWarnOne() {
        refused(CliRun.of("check", "h100_allreduce_8gpu_azure_ndv5", "--warn-below", "70", "--fail-below", "80"),
                "--fail-below 80", "--warn-below 70");
    }

    @Test
    void oneTierAndTwoTiersNamingDifferentFabrics() {
        refused(CliRun.of("calibrate", "h100_allreduce_8gpu_azure_ndv5", "--interconnect", "NVLink4", "--inter",
                "IB-NDR"), "--interconnect NVLink4", "--inter IB-NDR");
    }

    @Test
    void aReportDirectoryThatLooksLikeAFile(@TempDir Path dir) {
        Path json = dir.resolve("cal.json");
        refused(CliRun.of("calibrate", "h100_allreduce_8gpu_azure_ndv5", "--report", json.toString()), "give a directory");
        assertThat(json).doesNotExist();
    }

    @Test
    void csvAndJsonBothOnStandardOutput() {
        refused(CliRun.of("convert", "h100_allreduce_8gpu_azure_ndv5", "--csv", "-", "--json", "-"), "--csv -",
                "--json -");
    }

    @Test
    void theSweepJsonRecordsTheCommandLineOnce(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("s.json");
        CliRun r = CliRun.of("sweep", "-b", "1K", "-e", "4K", "--no-calibrate", "--json", json.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String line = new ObjectMapper().readTree(Files.readString(json)).path("nccl_harness").path("command_line")
                .asText();
        assertThat(line).startsWith("harness.jar sweep -b 1K").doesNotContain("sweep sweep");
    }
}
