package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README, "Outputs": a write that a signal interrupts says so and leaves nothing behind. The shipped jar converts a
 * large log (a real two-host log whose table is widened to 300,000 sizes) to CSV; while its temporary file is being
 * written, the test sends SIGTERM, as a batch system's time limit does.
 */
class InterruptedWriteIT {

    private static final Path JAR = Path.of("target", "harness.jar").toAbsolutePath();
    private static final Path LOG = Path.of(
            "../calibration/src/test/resources/logs/ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")
            .toAbsolutePath().normalize();
    private static final Pattern ROW = Pattern.compile(" +\\d+ +\\d+ +float .*");
    private static final int SIZES = 300_000;

    @Test
    void sigtermDuringAWriteSaysSoAndLeavesNoFile(@TempDir Path dir) throws IOException, InterruptedException {
        Path input = dir.resolve("big.txt");
        Files.write(input, widened(Files.readAllLines(LOG)));
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-jar", JAR.toString(), "convert", input.toString(), "--csv", "out.csv")
                .directory(dir.toFile()).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(err.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (temporaryFiles(dir).isEmpty()) {
            assertThat(p.isAlive()).as("convert ended before it wrote: %s", Files.readString(err)).isTrue();
            assertThat(System.nanoTime()).as("the temporary file appeared in 5 minutes").isLessThan(deadline);
            Thread.sleep(2);
        }
        p.destroy(); // SIGTERM on Linux
        assertThat(p.waitFor(600, TimeUnit.SECONDS)).as("only a hang takes 10 minutes").isTrue();
        assertThat(p.exitValue()).as("128 + SIGTERM's 15").isEqualTo(143);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(stderr.strip()).isEqualTo("interrupted by SIGTERM; nothing written (out.csv)");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("big.txt", "out.txt",
                    "err.txt");
        }
    }

    /** The log with its table replaced by {@link #SIZES} rows of growing sizes, its lines before and after kept. */
    private static List<String> widened(List<String> log) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < log.size(); i++) {
            if (ROW.matcher(log.get(i)).matches()) {
                first = first < 0 ? i : first;
                last = i;
            }
        }
        List<String> out = new ArrayList<>(log.subList(0, first));
        for (int k = 1; k <= SIZES; k++) {
            out.add(String.format(Locale.ROOT, "%12d  %12d     float     sum      -1    %7.2f    0.00    0.00      0"
                    + "    %7.2f    0.00    0.00      0", 8L * k, 2L * k, 38 + k * 1e-4, 37 + k * 1e-4));
        }
        out.addAll(log.subList(last + 1, log.size()));
        return out;
    }

    private static List<Path> temporaryFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith(".out.csv.")).toList();
        }
    }
}
