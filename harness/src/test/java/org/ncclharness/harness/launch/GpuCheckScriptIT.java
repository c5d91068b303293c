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
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class GpuCheckScriptIT {

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

    private Processes.Result check(Path out, int deadlineS) throws Exception {
        Map<String, String> env = new LinkedHashMap<>(standIns.environment(1, Map.of()));
        env.put("NCCL_LIB", standIns.dir().toString());
        env.put("HARNESS_JAR", Processes.JAR.toString());
        env.put("MAX_BYTES", "16K");
        env.put("BIG", "-b 64K -e 128K -c 0");
        env.put("DEADLINE", Integer.toString(deadlineS));
        env.put("OUT", out.toString());
        Path script = Path.of("..", "scripts", "gpu-check.sh").toAbsolutePath().normalize();
        return Processes.run(List.of("bash", script.toString()), env, tmp, "gpu-check", 230);
    }

    private static List<String> summary(Path out) throws Exception {
        return Files.readAllLines(out.resolve("summary.txt"));
    }

    private static String stepOf(String line) {
        return line.split("\\s+")[0];
    }

    @Test
    void everyStepLeavesItsFileAndASummaryLineUnderOut() throws Exception {
        Path out = tmp.resolve("out");
        Processes.Result r = check(out, 200);
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

    @Test
    void pastTheDeadlineTheRestIsSkippedAndSaidSo() throws Exception {
        Path out = tmp.resolve("short");
        Processes.Result r = check(out, 12);
        assertThat(r.rc()).as(r.out() + r.err()).isZero();
        List<String> lines = summary(out);
        assertThat(lines).anyMatch(l -> l.startsWith("big ") && l.contains("SKIPPED: deadline"));
        assertThat(lines.stream().filter(l -> STEPS.contains(stepOf(l))).map(GpuCheckScriptIT::stepOf).toList())
                .containsExactlyElementsOf(STEPS);
    }
}
