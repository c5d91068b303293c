package org.ncclharness.harness.bringup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.ExitCode;
import org.ncclharness.harness.plot.HeadlessChromium;

/** {@code bringup} where there is no GPU (this machine, CI): the refusal, the labelled replay, bad input. */
class BringupCommandTest {

    @TempDir
    Path tmp;

    @BeforeEach
    void noGpu() {
        assumeFalse(Gpus.probe().ok(), "a GPU is present: the no-GPU paths are not taken");
    }

    @Test
    void withoutAGpuItSaysWhyAndExitsThreeWritingNothing() {
        Path dir = tmp.resolve("b");
        CliRun r = CliRun.of("bringup", "-o", dir.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(r.err()).startsWith("no GPU: ").contains("--replay replays bundled runs");
        assertThat(r.out()).isEmpty();
        assertThat(dir).doesNotExist();
    }

    @Test
    void theReplayGoesThroughTheStepsLabelledAsAReplayAndKeepsItsBaseline() throws Exception {
        Path dir = tmp.resolve("replay");
        CliRun r = CliRun.of("bringup", "--replay", "--dataset", "h100_allreduce_16gpu_2node_aws_p5_efa_slurm", "-o",
                dir.toString());
        assertThat(r.exitCode()).as(r.err()).isIn(ExitCode.OK, ExitCode.FAIL);
        assertThat(r.out()).startsWith("# nccl-harness bringup: REPLAY, not measured here (no GPU: ")
                .contains("step 1 (every GPU alone): skipped: a replay has no bundled run of one GPU")
                .contains("step 2 (each host, all its GPUs): ")
                .contains("step 3 (all hosts, largest sizes): ").contains("step 4 (all hosts, every size): ");
        assertThat(dir.resolve("baseline.json")).content().contains("replay");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("REPLAY, not measured here");

        // a second bring-up compares its step 4 with the first's baseline: the same run, all of it at 100 %
        CliRun again = CliRun.of("bringup", "--replay", "--dataset", "h100_allreduce_16gpu_2node_aws_p5_efa_slurm",
                "--baseline", dir.toString(), "-o", tmp.resolve("again").toString());
        assertThat(again.out()).contains("step 4 (all hosts, every size): PASS (the whole curve, kept as the baseline)\n"
                + "  against baseline " + dir);

        // and the page opens from disk with its figures loaded
        HeadlessChromium chromium = HeadlessChromium.find(tmp);
        Matcher img = Pattern.compile("<img\\b[^>]*>").matcher(chromium.dumpDom(dir.resolve("index.html")));
        int figures = 0;
        while (img.find()) {
            assertThat(img.group()).contains("data-loaded=\"true\"");
            figures++;
        }
        assertThat(figures).isEqualTo(3);
    }

    @Test
    void anEarlierBringupIsNotOverwrittenWithoutForce() throws Exception {
        Path dir = tmp.resolve("kept");
        assertThat(CliRun.of("bringup", "--replay", "-o", dir.toString()).exitCode()).isIn(ExitCode.OK, ExitCode.FAIL);
        byte[] before = Files.readAllBytes(dir.resolve("baseline.json"));
        CliRun r = CliRun.of("bringup", "--replay", "-o", dir.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("index.html").contains("--force");
        assertThat(Files.readAllBytes(dir.resolve("baseline.json"))).isEqualTo(before);
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws Exception {
        assertThat(CliRun.of("bringup", "-N", "0").err()).contains("invalid -N 0");
        assertThat(CliRun.of("bringup", "--dataset", "x").err()).contains("--dataset names what --replay replays");
        assertThat(CliRun.of("bringup", "--pairs", "--baseline", "x").err()).contains("contradict");
        assertThat(CliRun.of("bringup", "-e", "1X").exitCode()).isEqualTo(ExitCode.USAGE);
        Files.createDirectories(tmp.resolve("empty"));
        CliRun r = CliRun.of("bringup", "--replay", "--baseline", tmp.resolve("empty").toString(), "-o",
                tmp.resolve("o").toString());
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("is a directory without baseline.json");
        assertThat(CliRun.of("bringup", "--replay", "--pairs", "-o", tmp.resolve("p").toString()).exitCode())
                .isEqualTo(ExitCode.ENVIRONMENT);
    }
}
