package org.ncclharness.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** {@code bench speed}'s parts: the row layout, what a child costs as /proc says it, and the refusal outside a jar. */
class SpeedBenchTest {

    @Test
    void aRowIsOneLineOfTheIssuesMarkdownTable() {
        assertThat(new SpeedRow("`accuracy`", "12.8 s (one run) = 25.6 ×", "≤ 30 s", SpeedRow.Met.of(true)).markdown())
                .isEqualTo("| `accuracy` | 12.8 s (one run) = 25.6 × | ≤ 30 s | yes |");
        assertThat(new SpeedRow("x", "y", "z", SpeedRow.Met.of(false)).markdown()).endsWith("| NO |");
        assertThat(SpeedRow.HEADER.lines().toList()).containsExactly("| what | measured | goal | met |",
                "|---|---|---|---|");
    }

    @Test
    void thePeakIsTheHighWaterLineOfProcStatus(@TempDir Path dir) throws IOException {
        Path status = dir.resolve("status");
        Files.writeString(status, "Name:\tjava\nVmPeak:\t 9000 kB\nVmHWM:\t  612345 kB\nVmRSS:\t 500000 kB\n");
        assertThat(ChildRun.highWaterKb(status)).isEqualTo(612_345);
        // the process ended between two samples: nothing read, the last sample stands
        assertThat(ChildRun.highWaterKb(dir.resolve("gone"))).isZero();
    }

    @Test
    void aReapedChildsCpuTimeIsChargedToThisProcess() throws Exception {
        double before = ChildRun.childrenCpuMs();
        // a shell that spins for a while: its CPU time, once reaped, is in this JVM's cutime
        Process p = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done").start();
        assertThat(p.waitFor()).isZero();
        assertThat(ChildRun.childrenCpuMs() - before).isPositive();
    }

    @Test
    void outsideAJarItSaysHowToRunIt() {
        CliRun run = CliRun.of("bench", "speed");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("bench speed starts harness.jar again").contains("java -jar harness.jar bench"
                + " speed");
    }
}
