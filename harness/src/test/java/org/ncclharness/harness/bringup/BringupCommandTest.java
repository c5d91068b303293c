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
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.figure.HeadlessChromium;

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
        // a replay measured nothing here: it neither passes this machine nor fails it (these rows PASS as stored)
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).startsWith("# nccl-harness bringup: REPLAY, not measured here (no GPU: ")
                .contains("step 1 (every GPU alone): skipped: a replay has no bundled run of one GPU")
                .contains("step 2 (each host, all its GPUs): WARN")
                .contains("step 3 (all hosts, largest sizes): WARN").contains("step 4 (all hosts, every size): WARN")
                .contains("  WARN  these numbers are a replay (replay of stored measurements: "
                        + "h100_allreduce_16gpu_2node_aws_p5_efa_slurm")
                .contains("\nVerdict: WARN (a replay of stored runs, not measured here: it neither passes nor fails"
                        + " this machine); step 4 kept as the baseline\n")
                .doesNotContain("PASS");
        assertThat(dir.resolve("baseline.json")).content().contains("replay");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("REPLAY, not measured here");

        // a second bring-up compares its step 4 with the first's baseline: the same run, all of it at 100 %
        CliRun again = CliRun.of("bringup", "--replay", "--dataset", "h100_allreduce_16gpu_2node_aws_p5_efa_slurm",
                "--baseline", dir.toString(), "-o", tmp.resolve("again").toString());
        assertThat(again.out()).contains("step 4 (all hosts, every size): WARN (the whole curve, kept as the baseline)\n"
                + "  against reference (baseline): " + dir);
        String step4 = again.out().substring(again.out().indexOf("step 4 ("), again.out().indexOf("diagnosis: "));
        // both are replays: the numbers judged and the baseline they are judged against, each said once
        assertThat(step4.lines().filter(l -> l.startsWith("  WARN") || l.startsWith("  FAIL")))
                .hasSize(2).anyMatch(l -> l.startsWith("  WARN  these numbers are a replay"))
                .anyMatch(l -> l.startsWith("  WARN  the reference (baseline) is a replay"));

        // and the page opens from disk with its figures loaded
        HeadlessChromium chromium = HeadlessChromium.find(tmp);
        Matcher img = Pattern.compile("<img\\b[^>]*>").matcher(chromium.dumpDom(dir.resolve("index.html")));
        int figures = 0;
        while (img.find()) {
            assertThat(img.group()).contains("data-loaded=\"true\"");
            figures++;
        }
        // three steps with a figure, each in both views (busbw and time)
        assertThat(figures).isEqualTo(6);
    }

    @Test
    void theReplayKeepsToTheRequestedSizesAndSetsABaselineOfOtherHardwareAside() throws Exception {
        Path a100 = tmp.resolve("a100");
        CliRun first = CliRun.of("bringup", "--replay", "--dataset", "a100_allreduce_16gpu_2node_oci_roce", "-b", "1K",
                "-e", "1M", "-o", a100.toString());
        assertThat(first.out()).contains("their sizes from 1 KiB to 1 MiB (-b/-e)").contains("busbw@1 MiB");
        // a replay's CSV says so on every row, and reads back as a replay
        assertThat(java.nio.file.Files.readAllLines(a100.resolve("baseline.csv")).subList(1, 12))
                .allSatisfy(l -> assertThat(Long.parseLong(l.split(",")[1])).isBetween(1024L, 1L << 20))
                .allSatisfy(l -> assertThat(l).contains(",replay,replay of stored measurements: "
                        + "a100_allreduce_16gpu_2node_oci_roce"));
        assertThat(Inputs.read(a100.resolve("baseline.csv").toString()).get(0).provenance().kind())
                .isEqualTo(SourceKind.REPLAY);
        CliRun h100 = CliRun.of("bringup", "--replay", "--dataset", "h100_allreduce_16gpu_2node_aws_p5_efa_slurm",
                "--baseline", a100.toString(), "-o", tmp.resolve("h100").toString());
        assertThat(h100.out()).contains("is not comparable (GPU H100 vs A100): step 4 is judged against the reference"
                + " (another cluster's run) instead; --allow-mismatch compares them anyway");
        CliRun anyway = CliRun.of("bringup", "--replay", "--dataset", "h100_allreduce_16gpu_2node_aws_p5_efa_slurm",
                "--baseline", a100.toString(), "--allow-mismatch", "-o", tmp.resolve("anyway").toString());
        assertThat(anyway.out()).contains("against reference (baseline): " + a100);
    }

    /**
     * Issue 40's second case: check of the OCI RoCE run knew its 16 NICs per host (the dataset's metadata) while the
     * replay of the same run said they were not known, and so did check of the baseline.json the replay kept; all three
     * now judge it against the same line rate.
     */
    @Test
    void theReplayKnowsTheNicsCheckKnowsOfTheSameRun() {
        String line = "of the line rate of 16 RoCE-100G NICs per host at 12.5 GB/s (200 GB/s)";
        CliRun check = CliRun.of("check", "a100_allreduce_16gpu_2node_oci_roce");
        assertThat(check.out()).contains(line);
        CliRun replay = CliRun.of("bringup", "--replay", "--dataset", "a100_allreduce_16gpu_2node_oci_roce", "-o",
                tmp.resolve("nics").toString());
        assertThat(replay.exitCode()).as(replay.err()).isEqualTo(ExitCode.OK);
        assertThat(replay.out()).contains(line).doesNotContain("NICs per host are not known");
        // and the baseline it kept keeps them: check of baseline.json judges it against the same line rate
        CliRun kept = CliRun.of("check", tmp.resolve("nics").resolve("baseline.json").toString());
        assertThat(kept.exitCode()).as(kept.err()).isEqualTo(ExitCode.OK);
        assertThat(kept.out()).contains(line).doesNotContain("NICs per host are not known");
    }

    @Test
    void anEarlierBringupIsNotOverwrittenWithoutForce() throws Exception {
        Path dir = tmp.resolve("kept");
        assertThat(CliRun.of("bringup", "--replay", "-o", dir.toString()).exitCode()).isEqualTo(ExitCode.OK);
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
        assertThat(CliRun.of("bringup", "--replay", "--pairs", "-o", tmp.resolve("p").toString()).err())
                .contains("--pairs and --replay contradict");
        // a typo in the network's name is exit 2 before anything runs, with or without a GPU
        CliRun ic = CliRun.of("bringup", "--interconnect", "IB-NDRR");
        assertThat(ic.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(ic.err()).contains("unknown interconnect IB-NDRR");
        assertThat(CliRun.of("bringup", "--replay", "--dataset", "nosuch", "-o", tmp.resolve("n").toString()).err())
                .contains("nosuch: no bundled dataset of this id");
        assertThat(CliRun.of("bringup", "--replay", "-o", tmp.resolve("x.html").toString()).err())
                .contains("-o/--out names a directory");
    }
}
