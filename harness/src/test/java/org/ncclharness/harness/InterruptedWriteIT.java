package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README, "Outputs": a write that a signal interrupts says so and leaves nothing behind. The shipped jar converts a
 * real two-host log to CSV; once its temporary file is written and not yet in place, the test sends SIGTERM, as a
 * batch system's time limit does. The jar runs with the writer's test seam on ({@code nccl-harness.hold-written-temp}:
 * a written temporary file waits until the process ends), so the signal always lands mid-write, however fast or
 * loaded the machine: the test waits for what it can see (the temporary file, with its bytes), never for a margin.
 */
class InterruptedWriteIT {

    private static final Path JAR = Path.of("target", "harness.jar").toAbsolutePath();
    private static final Path LOG = Path.of(
            "../calibration/src/test/resources/logs/ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")
            .toAbsolutePath().normalize();

    @Test
    void sigtermDuringAWriteSaysSoAndLeavesNoFile(@TempDir Path dir) throws IOException, InterruptedException {
        Path input = Files.copy(LOG, dir.resolve("run.txt"));
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-Dnccl-harness.hold-written-temp=true", "-jar", JAR.toString(), "convert",
                input.toString(), "--csv", "out.csv")
                .directory(dir.toFile()).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(err.toFile())
                .start();
        // the seam holds the written file until the signal: only a convert that fails or never writes ends this
        while (temporaryFiles(dir).stream().noneMatch(InterruptedWriteIT::hasBytes)) {
            assertThat(p.isAlive()).as("convert ended before it wrote: %s", Files.readString(err)).isTrue();
            Thread.sleep(5);
        }
        assertThat(dir.resolve("out.csv")).as("held before its move into place").doesNotExist();
        p.destroy(); // SIGTERM on Linux
        assertThat(p.waitFor(600, TimeUnit.SECONDS)).as("only a hang takes 10 minutes").isTrue();
        assertThat(p.exitValue()).as("128 + SIGTERM's 15").isEqualTo(143);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(stderr.strip()).isEqualTo("interrupted by SIGTERM; nothing written (out.csv)");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("run.txt", "out.txt",
                    "err.txt");
        }
    }

    private static boolean hasBytes(Path f) {
        try {
            return Files.size(f) > 0;
        } catch (IOException e) {
            return false; // removed between the listing and the look
        }
    }

    private static List<Path> temporaryFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith(".out.csv.")).toList();
        }
    }
}
