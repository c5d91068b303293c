package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every command reads its input once: the shipped jar runs under strace, which records each open(2) of the input
 * file. The log is a real two-host run with NCCL's lines, so every fact a command looks for besides the table (the
 * network, the NICs, the diagnosis, the launch line) is there to be read, and a command that went back to the file
 * for one of them would open it again.
 */
class ReadOnceIT {

    private static final Path JAR = Path.of("target", "harness.jar").toAbsolutePath();
    private static final Path LOG = Path.of(
            "../calibration/src/test/resources/logs/ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")
            .toAbsolutePath().normalize();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "check LOG",
        "check LOG --interconnect IB-NDR --nics-per-host 8 --markdown OUT/r.md",
        "calibrate LOG --interconnect IB-NDR",
        "calibrate LOG",
        "diagnose LOG",
        "convert LOG --csv OUT/x.csv",
        "plot LOG --model --interconnect IB-NDR --out OUT/m.png",
    })
    void eachCommandOpensItsInputOnce(String commandLine, @TempDir Path dir) throws IOException, InterruptedException {
        Path input = dir.resolve("run.log");
        Files.copy(LOG, input);
        Path trace = dir.resolve("opens.txt");
        List<String> cmd = new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=open,openat", "-o",
                trace.toString(), Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-jar", JAR.toString()));
        cmd.addAll(List.of(commandLine.replace("LOG", input.toString()).replace("OUT", dir.toString()).split(" ")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile())
                .start();
        assertThat(p.waitFor(600, TimeUnit.SECONDS)).as("%s finished (only a hang takes 10 minutes)", commandLine)
                .isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("out.txt")))
                .isIn(ExitCode.OK, ExitCode.FAIL, ExitCode.USAGE);
        long opens = Files.readAllLines(trace).stream().filter(l -> l.contains("\"" + input + "\"")).count();
        assertThat(opens).as("times %s opened its input", commandLine).isEqualTo(1);
    }
}
