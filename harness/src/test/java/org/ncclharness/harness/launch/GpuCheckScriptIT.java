package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/gpu-check.sh} end to end without a GPU: against the CUDA/NCCL stand-ins ({@link StandIns}),
 * through harness.jar's real bindings. Checks the layout the device call returns under $OUT: one file per step,
 * the summary written as it goes, the sweep's JSON, and the deadline that keeps a rerun inside the window.
 * The real run gets limits only a hang reaches; the step timeout and the deadline are shown with a {@code java}
 * that never ends, so they fire whatever the machine's load (issue 43: no verdict races the clock).
 */
class GpuCheckScriptIT {

    /** Limits for the real run that only a hang reaches: a loaded 2-core machine stretches it many times over. */
    private static final int GENEROUS_S = 3600;

    /** The steps in the order the script runs them (no all_reduce_perf here, so no -compare steps). */
    static final List<String> STEPS = List.of("system", "nvidia-smi", "libraries", "java", "version", "gpus", "smoke",
            "doctor", "sweep-json", "bringup", "sweep", "runs-3", "graph-10", "blocking-1", "agg-2", "per-iter", "big");
    static final List<String> HARNESS_STEPS = STEPS.subList(STEPS.indexOf("version"), STEPS.size());

    static StandIns standIns;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build() throws Exception {
        standIns = StandIns.shared();
    }

    private Processes.Result check(Path out, Map<String, String> overrides) throws Exception {
        Map<String, String> env = new LinkedHashMap<>(standIns.environment(1, Map.of()));
        env.put("NCCL_LIB", standIns.dir().toString());
        env.put("HARNESS_JAR", Processes.JAR.toString());
        env.put("MAX_BYTES", "16K");
        env.put("BIG", "-b 64K -e 128K -c 0");
        env.put("OUT", out.toString());
        env.putAll(overrides);
        Path script = Path.of("..", "scripts", "gpu-check.sh").toAbsolutePath().normalize();
        return Processes.run(List.of("bash", script.toString()), env, tmp, "gpu-check", GENEROUS_S);
    }

    private static List<String> summary(Path out) throws Exception {
        return Files.readAllLines(out.resolve("summary.txt"));
    }

    private static String stepOf(String line) {
        return line.split("\\s+")[0];
    }

    @Test
    @Timeout(value = GENEROUS_S + 60, unit = TimeUnit.SECONDS)
    void everyStepLeavesItsFileAndASummaryLineUnderOut() throws Exception {
        Path out = tmp.resolve("out");
        Processes.Result r = check(out, Map.of("DEADLINE", Integer.toString(GENEROUS_S), "STEP_TIMEOUT",
                Integer.toString(GENEROUS_S)));
        assertThat(r.rc()).as(r.out() + r.err()).isZero();
        List<String> lines = summary(out);
        List<String> stepLines = lines.stream().filter(l -> STEPS.contains(stepOf(l))).toList();
        assertThat(stepLines.stream().map(GpuCheckScriptIT::stepOf).toList()).containsExactlyElementsOf(STEPS);
        for (String line : stepLines) {
            assertThat(out.resolve(stepOf(line) + ".txt")).as(line).exists();
            if (HARNESS_STEPS.contains(stepOf(line))) {
                assertThat(line).as("a harness step against the stand-ins").contains(" rc=0 ");
            }
        }
        assertThat(lines).anyMatch(l -> l.equals("nccl library directory: " + standIns.dir()))
                .anyMatch(l -> l.startsWith("all_reduce_perf: none"));
        assertThat(Files.readString(out.resolve("gpus.txt"))).contains("Stand-in GPU (host memory)");
        assertThat(Files.readString(out.resolve("sweep.txt"))).contains("# Out of bounds values : 0 OK");
        // nccl-tests' own JSON layout (-J), with the rows the stand-ins measured
        var json = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertThat(json.path("version").asInt()).isEqualTo(3);
        assertThat(json.path("results").size()).isPositive();
        assertThat(out.resolve("javacpp-cache")).doesNotExist();
    }

    /**
     * Every harness step runs a {@code java} that never ends, so each one is certain to reach its 3 s timeout; 14
     * of them take at least 15 s, so the 20 s deadline (a step needs 5 s left) is certain to skip the last ones.
     * Only the first three steps (uname, ldconfig: milliseconds) must end before the deadline for {@code java} to
     * run at all, a margin of 15 s.
     */
    @Test
    @Timeout(value = GENEROUS_S, unit = TimeUnit.SECONDS)
    void aStepThatNeverEndsTimesOutAndPastTheDeadlineTheRestIsSkippedAndSaidSo() throws Exception {
        Path never = tmp.resolve("never-ending-java");
        Files.writeString(never, "#!/bin/sh\nexec sleep 100000\n");
        assertThat(never.toFile().setExecutable(true)).isTrue();
        Path out = tmp.resolve("short");
        Processes.Result r = check(out, Map.of("JAVA", never.toString(), "STEP_TIMEOUT", "3", "DEADLINE", "20",
                "CUDART_LIB", tmp.toString()));
        assertThat(r.rc()).as(r.out() + r.err()).isZero();
        List<String> lines = summary(out);
        assertThat(lines).anyMatch(l -> l.startsWith("java ") && l.contains("TIMEOUT after 3s"))
                .anyMatch(l -> l.startsWith("big ") && l.contains("SKIPPED: deadline"))
                .noneMatch(l -> l.contains(" rc=0 ") && HARNESS_STEPS.contains(stepOf(l)));
        assertThat(lines.stream().filter(l -> STEPS.contains(stepOf(l))).map(GpuCheckScriptIT::stepOf).toList())
                .containsExactlyElementsOf(STEPS);
    }
}
