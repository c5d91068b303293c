package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.exit.ExitCode;

/**
 * {@code check} and {@code calibrate} show NCCL's own estimate, where a sweep's JSON carries it, as a reference curve:
 * one line per size band, INFO or WARN, never FAIL. The input is a bundled run written as JSON, each row given an
 * estimate at a known fraction of its measured time.
 */
class NcclEstimateReferenceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    Path run;

    /** 1–16 MiB measured 2.1× the estimate, 16 MiB and up 5×, smaller sizes none. */
    @BeforeEach
    void runWithEstimates() throws IOException {
        Path plain = dir.resolve("plain.json");
        CliRun c = CliRun.of("convert", "h100_allreduce_8gpu_1node_aws_p5_batch", "--json", plain.toString());
        assertThat(c.exitCode()).as(c.err()).isZero();
        JsonNode root = JSON.readTree(plain.toFile());
        for (JsonNode r : root.path("results")) {
            long size = r.path("size").asLong();
            double t = r.path("out_of_place").path("time").asDouble();
            if (size >= 1 << 20) {
                ObjectNode ours = r.has("nccl_harness") ? (ObjectNode) r.get("nccl_harness")
                        : ((ObjectNode) r).putObject("nccl_harness");
                ours.put("nccl_estimate_time_us", t / (size >= 16 << 20 ? 5.0 : 2.1));
            }
        }
        run = dir.resolve("run.json");
        JSON.writeValue(run.toFile(), root);
    }

    @Test
    void checkSaysHowFarTheRunIsFromNcclsOwnEstimatePerBandAndNeverFailsOnIt() {
        CliRun plain = CliRun.of("check", dir.resolve("plain.json").toString());
        CliRun r = CliRun.of("check", run.toString());
        assertThat(r.out()).contains("measured 2.10× NCCL's own estimate at 1 MiB–16 MiB")
                .contains("measured 5.00× NCCL's own estimate at 16 MiB–256 MiB")
                .doesNotContain("NCCL's own estimate at 256 KiB");
        assertThat(r.out().lines().filter(l -> l.contains("NCCL's own estimate") && l.contains("FAIL"))).isEmpty();
        assertThat(plain.out()).doesNotContain("NCCL's own estimate");
        // at most a WARN: a run that passed without the estimate does not fail with it
        assertThat(r.exitCode()).isEqualTo(plain.exitCode() == ExitCode.OK ? ExitCode.OK : plain.exitCode());
    }

    @Test
    void calibrateShowsItBesideTheFitWithoutUsingIt() {
        CliRun plain = CliRun.of("calibrate", dir.resolve("plain.json").toString());
        CliRun r = CliRun.of("calibrate", run.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("# " + run + ": INFO measured 2.10× NCCL's own estimate at 1 MiB–16 MiB")
                .contains("# " + run + ": WARN measured 5.00× NCCL's own estimate at 16 MiB–256 MiB");
        // the fit is the same with and without the estimate (the file names' widths aside)
        assertThat(r.out().lines().filter(l -> !l.contains("NCCL's own estimate"))
                .map(l -> l.replace(run.toString(), "X").replaceAll("\\s+", " ")).toList())
                .isEqualTo(plain.out().lines()
                        .map(l -> l.replace(dir.resolve("plain.json").toString(), "X").replaceAll("\\s+", " ")).toList());
    }
}
