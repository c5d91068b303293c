package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The short outputs, byte for byte, against files under {@code src/test/resources/golden/}: a change to what a
 * user sees shows up in review as a diff of these files. {@code -Dgolden.update=true} rewrites them.
 */
class GoldenOutputTest {

    private static final Path DIR = Path.of("src/test/resources/golden");
    private static final int TERMINAL_COLUMNS = 120;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "calibrate-one-and-two-tier | calibrate h100_allreduce_8gpu_azure_ndv5 a100_allreduce_16gpu_2node_aws_p4d_efa_eks"
                + " v100_allgather_12gpu_1node_nvlink2_dgx2_wohlbier",
        "calibrate-joint | calibrate --joint",
        "datasets-h100 | datasets --gpu H100",
        "predict-ring | predict --bytes 14GB --gpus 8 --bandwidth 25GB/s --step-latency 10us",
        "check-alone | check a100_allreduce_16gpu_2node_oci_roce --min-busbw 200",
    })
    void theShortOutputIsAsReviewed(String name, String commandLine) throws IOException {
        CliRun run = CliRun.of(commandLine.split(" "));
        assertThat(run.err()).isEmpty();
        String text = run.out();
        Path golden = DIR.resolve(name + ".txt");
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, text, StandardCharsets.UTF_8);
        }
        assertThat(text).as("%s (rerun with -Dgolden.update=true after reviewing the change)", name)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
        if (commandLine.startsWith("calibrate")) {
            assertThat(text.lines()).as("fits a %d-column terminal", TERMINAL_COLUMNS)
                    .allMatch(l -> l.length() <= TERMINAL_COLUMNS);
        }
    }

    /**
     * The README's {@code calibrate} example is the golden file of the same command, so neither drifts from what
     * the command prints; {@code -Dgolden.update=true} copies the golden (written by the test above) into it.
     */
    @org.junit.jupiter.api.Test
    void theReadmeCalibrateExampleIsItsGolden() throws IOException {
        String golden = Files.readString(DIR.resolve("calibrate-one-and-two-tier.txt"), StandardCharsets.UTF_8);
        Path readmeFile = Path.of("../README.md");
        String readme = Files.readString(readmeFile, StandardCharsets.UTF_8);
        String start = "$ java -jar harness.jar calibrate h100_allreduce_8gpu_azure_ndv5"
                + " a100_allreduce_16gpu_2node_aws_p4d_efa_eks v100_allgather_12gpu_1node_nvlink2_dgx2_wohlbier\n";
        int from = readme.indexOf(start) + start.length();
        assertThat(from).as("the README's calibrate example").isGreaterThanOrEqualTo(start.length());
        int to = readme.indexOf("```", from);
        if (Boolean.getBoolean("golden.update")) {
            readme = readme.substring(0, from) + golden + readme.substring(to);
            Files.writeString(readmeFile, readme, StandardCharsets.UTF_8);
        }
        assertThat(readme.substring(from, readme.indexOf("```", from)))
                .as("README's calibrate example (-Dgolden.update=true)").isEqualTo(golden);
    }

    /** The README's example ticket is what {@code check --markdown} writes today. */
    @org.junit.jupiter.api.Test
    void theExampleTicketInTheDocsIsWhatCheckWrites(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path md = dir.resolve("bringup-a100-oci.md");
        CliRun run = CliRun.of("check", "a100_allreduce_16gpu_2node_oci_roce", "--markdown", md.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path committed = Path.of("../docs/examples/bringup-a100-oci.md");
        if (Boolean.getBoolean("golden.update")) {
            Files.copy(md, committed, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.copy(dir.resolve("bringup-a100-oci.png"), committed.resolveSibling("bringup-a100-oci.png"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        assertThat(Files.readString(md)).as("docs/examples/bringup-a100-oci.md (-Dgolden.update=true)")
                .isEqualTo(Files.readString(committed));
    }
}
