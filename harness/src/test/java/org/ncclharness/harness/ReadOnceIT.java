package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.harness.launch.CommandsMain;

/**
 * Every command reads its input once: the shipped jar runs under strace, which records each open(2) of the input
 * file. The log is a real two-host run with NCCL's lines, so every fact a command looks for besides the table (the
 * network, the NICs, the diagnosis, the launch line) is there to be read, and a command that went back to the file
 * for one of them would open it again. The commands run one after another in one JVM ({@link CommandsMain}: what is
 * counted is each command's reads, not the JVM's start), each on its own copy of the log, so each copy's opens are
 * that command's alone.
 */
class ReadOnceIT {

    private static final Path JAR = Path.of("target", "harness.jar").toAbsolutePath();
    private static final Path LOG = Path.of(
            "../calibration/src/test/resources/logs/ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")
            .toAbsolutePath().normalize();

    static List<String> commandLines() {
        return List.of(
                "check LOG",
                "check LOG --interconnect IB-NDR --nics-per-host 8 --markdown OUT/r.md",
                "calibrate LOG --interconnect IB-NDR",
                "calibrate LOG",
                "diagnose LOG",
                "convert LOG --csv OUT/x.csv",
                "plot LOG --model --interconnect IB-NDR --out OUT/m.png");
    }

    @TempDir
    static Path dir;
    private static String out;
    private static List<String> opens;

    /** Run {@code k}'s own folder, with its copy of the log. */
    private static Path own(int k) {
        return dir.resolve("run" + k);
    }

    private static synchronized void runAll() throws Exception {
        if (out != null) {
            return;
        }
        Path classes = Path.of(CommandsMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path trace = dir.resolve("opens.txt");
        List<String> cmd = new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=open,openat", "-o",
                trace.toString(), Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-cp", JAR + File.pathSeparator + classes, CommandsMain.class.getName()));
        for (int k = 0; k < commandLines().size(); k++) {
            Path input = Files.createDirectories(own(k)).resolve("run.log");
            Files.copy(LOG, input);
            if (k > 0) {
                cmd.add(CommandsMain.NEXT);
            }
            cmd.addAll(List.of(commandLines().get(k).replace("LOG", input.toString()).replace("OUT", own(k)
                    .toString()).split(" ")));
        }
        Path output = dir.resolve("out.txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(p.waitFor(600, TimeUnit.SECONDS)).as("the commands finished (only a hang takes 10 minutes)")
                .isTrue();
        out = Files.readString(output);
        opens = Files.readAllLines(trace);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandLines")
    void eachCommandOpensItsInputOnce(String commandLine) throws Exception {
        runAll();
        int k = commandLines().indexOf(commandLine);
        Matcher end = Pattern.compile("(?m)^" + Pattern.quote(CommandsMain.end(k, 0).replaceAll("0$", ""))
                + "(\\d+)$").matcher(out);
        assertThat(end.find()).as("%s ended%n%s", commandLine, out).isTrue();
        assertThat(Integer.parseInt(end.group(1))).as("%s%n%s", commandLine, out)
                .isIn(ExitCode.OK, ExitCode.FAIL, ExitCode.USAGE);
        Path input = own(k).resolve("run.log");
        long count = opens.stream().filter(l -> l.contains("\"" + input + "\"")).count();
        assertThat(count).as("times %s opened its input", commandLine).isEqualTo(1);
    }
}
