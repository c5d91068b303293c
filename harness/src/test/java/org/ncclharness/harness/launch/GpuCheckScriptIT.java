package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bash scripts/gpu-check.sh} as the device call runs it, end to end without a GPU: the CUDA/NCCL stand-ins
 * ({@link StandIns}) laid out as pip lays out the CUDA 13 wheels ({@code nvidia/nccl/lib} with its include folder,
 * {@code nvidia/cu13/lib}) and found through python3's path; a stand-in nccl-tests source tree whose Makefile
 * fails as the real build does without the whole include folder or an unversioned {@code libnccl.so}, and builds a
 * stand-in {@code all_reduce_perf} printing nccl-tests 2.19.6's format; then every flag set compared. Checks what
 * the device call can return: at most 8 files under $OUT, a summary under 10,000 characters. Timeouts are shown
 * with a {@code java} that never ends (issue 43: no verdict races the clock).
 */
class GpuCheckScriptIT extends UsesStandIns {

    /** Limits for the real run that only a hang reaches: a loaded 2-core machine stretches it many times over. */
    private static final int GENEROUS_S = 3600;
    /** What one device call brings back. */
    private static final int MAX_FILES = 8;
    private static final int MAX_SUMMARY_CHARS = 10_000;

    static final List<String> FLAG_SETS = List.of("plain", "graph-10", "blocking-1", "per-iter", "agg-2", "big");

    @TempDir
    Path tmp;

    /** The whole check with generous limits, run once and read by the tests that need its outputs. */
    @TempDir
    static Path wholeDir;
    private static Processes.Result whole;

    /** A pip-style tree (nvidia/nccl/{lib,include}, nvidia/cu13/lib) of the stand-ins, and a PYTHONPATH to it. */
    private static Path pipTree(Path tmp) throws IOException {
        Path site = tmp.resolve("site");
        Path nccl = Files.createDirectories(site.resolve("nvidia/nccl/lib"));
        Files.createDirectories(site.resolve("nvidia/nccl/include/nccl_device"));
        Files.writeString(site.resolve("nvidia/nccl/include/nccl.h"), "/* stand-in */\n");
        Files.writeString(site.resolve("nvidia/nccl/include/nccl_device/coop.h"), "/* stand-in */\n");
        Files.copy(standIns.dir().resolve("libnccl.so.2"), nccl.resolve("libnccl.so.2"));
        Path cu13 = Files.createDirectories(site.resolve("nvidia/cu13/lib"));
        Files.copy(standIns.dir().resolve(StandIns.CUDART_VERSION), cu13.resolve(StandIns.CUDART_VERSION));
        return site;
    }

    /** The stand-in nccl-tests tree and an {@code nvcc} for the script to find (the Makefile calls gcc). */
    private static Path sourceTree(Path tmp, Path bin) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("nccl-tests/src"));
        for (String f : List.of("Makefile", "all_reduce_perf.c")) {
            try (InputStream in = GpuCheckScriptIT.class.getResourceAsStream("/standins/nccl-tests/src/" + f)) {
                Files.copy(in, src.resolve(f));
            }
        }
        executable(bin.resolve("nvcc"), "#!/bin/sh\nexit 0\n");
        return src.getParent();
    }

    /**
     * A {@code java} whose every run never ends, so each step that starts one is certain to reach its timeout; only
     * {@code -version} (the script's lookup before the steps, under a limit only a hang reaches) answers at once.
     */
    private Path neverEndingJava() throws IOException {
        Path never = tmp.resolve("never-ending-java");
        executable(never, "#!/bin/sh\n[ \"$1\" = -version ] && { echo 'openjdk version \"stand-in\"' >&2; exit 0; }\n"
                + "exec sleep 100000\n");
        return never;
    }

    private static void executable(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        assertThat(p.toFile().setExecutable(true)).isTrue();
    }

    private Processes.Result check(Path out, Map<String, String> overrides) throws Exception {
        return check(tmp, out, overrides);
    }

    /**
     * The script in {@code tmp} with {@code overrides}; the lookups and the build get limits only a hang reaches
     * unless overridden, so only the timeouts a test makes certain to fire can fire.
     */
    private static Processes.Result check(Path tmp, Path out, Map<String, String> overrides) throws Exception {
        Path bin = tmp.resolve("bin");
        Map<String, String> env = new LinkedHashMap<>(standIns.environment(1, Map.of()));
        // the script's JVMs start as the other integration tests' do: small and quick on 2 shared cores, mapping the
        // class-data archive of the jar's classes (java -jar harness.jar, as it was dumped)
        List<String> jvm = new ArrayList<>(Processes.JVM_FLAGS);
        jvm.addAll(ClassArchive.flags());
        env.merge("JAVA_TOOL_OPTIONS", String.join(" ", jvm), (a, b) -> a + " " + b);
        env.put("PYTHONPATH", pipTree(tmp).toString());
        env.put("NCCL_TESTS_SRC", sourceTree(tmp, bin).toString());
        env.put("PROBE_TIMEOUT", Integer.toString(GENEROUS_S));
        env.put("BUILD_TIMEOUT", Integer.toString(GENEROUS_S));
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        env.put("HARNESS_JAR", Processes.JAR.toString());
        env.put("MAX_BYTES", "16K");
        env.put("BIG", "-b 64K -e 128K -c 0");
        env.put("OUT", out.toString());
        env.put("LDCONFIG", "true"); // this machine's linker cache may list a real CUDA runtime: pip's is tested
        env.putAll(overrides);
        Path script = Path.of("..", "scripts", "gpu-check.sh").toAbsolutePath().normalize();
        return Processes.run(List.of("bash", script.toString()), env, tmp, "gpu-check", GENEROUS_S);
    }

    private static List<Path> files(Path out) throws IOException {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    /** The tarball's entries (tar -tzf). */
    private static List<String> entries(Path tarball) throws Exception {
        Process p = new ProcessBuilder("tar", "-tzf", tarball.toString()).redirectErrorStream(true).start();
        List<String> out = new ArrayList<>(new String(p.getInputStream().readAllBytes()).lines().toList());
        assertThat(p.waitFor()).isZero();
        return out;
    }

    /** The whole check, every limit one only a hang reaches: run by the first test that asks, in {@link #wholeDir}. */
    private static synchronized Processes.Result whole() throws Exception {
        if (whole == null) {
            whole = check(wholeDir, wholeDir.resolve("out"), Map.of("DEADLINE", Integer.toString(GENEROUS_S),
                    "STEP_TIMEOUT", Integer.toString(GENEROUS_S)));
        }
        return whole;
    }

    @Test
    @Timeout(value = GENEROUS_S + 60, unit = TimeUnit.SECONDS)
    void theWholeCheckFindsPipLibrariesBuildsAllReducePerfComparesEveryFlagSetAndFitsTheDeviceCall()
            throws Exception {
        Processes.Result r = whole();
        Path out = wholeDir.resolve("out");
        assertThat(r.rc()).as(r.out() + r.err()).isZero();

        // what the device call returns: two files, the summary short enough, and the same text on stdout
        assertThat(files(out)).hasSizeLessThanOrEqualTo(MAX_FILES)
                .containsExactlyInAnyOrder(out.resolve("summary.txt"), out.resolve("gpu-check.tar.gz"));
        String summary = Files.readString(out.resolve("summary.txt"));
        assertThat(summary.length()).isLessThan(MAX_SUMMARY_CHARS);
        assertThat(r.out()).contains(summary.strip().lines().skip(2).findFirst().orElseThrow());

        Path site = wholeDir.resolve("site").toRealPath();
        assertThat(summary).contains("nccl library directory: " + site.resolve("nvidia/nccl/lib"))
                .contains("cudart library directory: " + site.resolve("nvidia/cu13/lib"))
                .containsPattern("step build-nccl-tests +rc=0 ")
                .containsPattern("all_reduce_perf: .*/all_reduce_perf")
                .containsPattern("step gpus +rc=0 ");
        for (String set : FLAG_SETS) {
            assertThat(summary).as(set).containsPattern("step " + set + " +rc=0 ");
        }
        // per size, both tools side by side (the stand-in prints 5.00 + bytes/2000 us out-of-place), with ratios
        List<String> plain = summary.lines().dropWhile(l -> !l.startsWith("-- plain")).skip(3)
                .takeWhile(l -> l.matches(" *\\d+ \\|.*")).toList();
        assertThat(plain).hasSize(12); // 8 B to 16 KiB, factor 2
        assertThat(plain.get(0).trim().split("[ |]+")).startsWith("8", "5.00");
        assertThat(summary).containsPattern("-- per-iter .*geometric mean harness/nccl-tests, 12 sizes: time"
                + " oop \\d+\\.\\d{3} ip \\d+\\.\\d{3}; algbw oop \\d+\\.\\d{3} ip \\d+\\.\\d{3}");
        assertThat(summary).contains("-- graph-10").contains("-- big");

        List<String> inside = entries(out.resolve("gpu-check.tar.gz"));
        assertThat(inside).contains("gpu-check/gpus.txt", "gpu-check/build-nccl-tests.txt",
                "gpu-check/per-iter/harness.txt", "gpu-check/per-iter/nccl-tests.txt", "gpu-check/plain.json");
    }

    /**
     * The harness's {@code -I 1} table puts the in-place time where nccl-tests 2.19.6 puts it: the comparison of a
     * {@code -I} flag set reads the same columns from both tools (a misread column would pair a time with an
     * i_min or a bandwidth, far from 1 on the stand-in's made-up times, and the time with itself exactly 1).
     */
    @Test
    @Timeout(value = GENEROUS_S + 60, unit = TimeUnit.SECONDS)
    void aPerIterationTableIsReadAtTheSameColumnsInBothTools() throws Exception {
        Processes.Result r = whole();
        Path out = wholeDir.resolve("out");
        assertThat(r.rc()).as(r.out() + r.err()).isZero();
        Path x = tmp.resolve("x");
        Files.createDirectories(x);
        assertThat(new ProcessBuilder("tar", "-xzf", out.resolve("gpu-check.tar.gz").toString(), "-C", x.toString())
                .start().waitFor()).isZero();
        String harness = Files.readString(x.resolve("gpu-check/per-iter/harness.txt"));
        assertThat(harness).contains("# Per-Iteration Report: CUDA event timing; i_* uses max over process rows \n")
                .contains("    i_min    i_max    i_p99    i_cv%     time   algbw");
        List<String> rows = Files.readAllLines(x.resolve("gpu-check/per-iter/harness.rows"));
        List<String> table = harness.lines().filter(l -> l.matches(" +\\d+ +\\d+ +float .*")).toList();
        assertThat(rows).hasSameSizeAs(table).isNotEmpty();
        for (int i = 0; i < rows.size(); i++) {
            String[] f = table.get(i).trim().split(" +");
            assertThat(rows.get(i)).isEqualTo(String.join(" ", f[0], f[5], f[6], f[13], f[14]));
        }
    }

    /**
     * Every harness step runs a {@code java} that never ends, so each one is certain to reach its 1 s timeout; the
     * 7 s deadline (a step needs 5 s left) is certain to skip the last ones (at most three of the seven
     * start). The build is not under the deadline:
     * it ran before it, on its own timeout.
     */
    @Test
    @Timeout(value = GENEROUS_S, unit = TimeUnit.SECONDS)
    void aStepThatNeverEndsTimesOutAndPastTheDeadlineTheRestIsSkippedAndSaidSo() throws Exception {
        Path never = neverEndingJava();
        Path out = tmp.resolve("short");
        Processes.Result r = check(out, Map.of("JAVA", never.toString(), "STEP_TIMEOUT", "1", "DEADLINE", "7"));
        assertThat(r.rc()).as(r.out() + r.err()).isZero();
        List<String> lines = Files.readAllLines(out.resolve("summary.txt"));
        assertThat(lines).anyMatch(l -> l.matches("step gpus +TIMEOUT after 1s .*"))
                .anyMatch(l -> l.matches("step big +SKIPPED: deadline .*"))
                .anyMatch(l -> l.matches("step build-nccl-tests +rc=0 .*"))
                .noneMatch(l -> l.matches("step (plain|gpus) +rc=0 .*"));
        assertThat(files(out)).hasSizeLessThanOrEqualTo(MAX_FILES);
    }

    /**
     * The Java runtime unpacked from its tarball; with no GPU (the CUDA stand-in reporting none), every sweep exits 3
     * and says it
     * measured and replayed nothing (HARNESS_NO_REPLAY=1): all_reduce_perf's numbers are never set beside bundled
     * ones.
     */
    @Test
    @Timeout(value = GENEROUS_S, unit = TimeUnit.SECONDS)
    void aFailedProbeNeverReplays() throws Exception {
        Path out = tmp.resolve("noreplay");
        // the carried runtime as a tarball: here its java only hands over to this machine's
        Path rt = tmp.resolve("rt");
        executable(rt.resolve("runtime/bin/java"), "#!/bin/sh\nexec java \"$@\"\n");
        Path xz = tmp.resolve("runtime.tar.xz");
        assertThat(new ProcessBuilder("tar", "-cJf", xz.toString(), "-C", rt.toString(), "runtime").start().waitFor())
                .isZero();
        Processes.Result r = check(out, Map.of("STANDIN_DEVICES", "0", "DEADLINE", Integer.toString(GENEROUS_S),
                "STEP_TIMEOUT", Integer.toString(GENEROUS_S), "RUNTIME_XZ", xz.toString()));
        assertThat(r.rc()).as(r.out() + r.err()).isZero();
        String summary = Files.readString(out.resolve("summary.txt"));
        assertThat(summary).containsPattern("java: /\\S+/runtime/bin/java \\(.*version");
        for (String set : FLAG_SETS) {
            assertThat(summary).as(set).containsPattern("step " + set + " +rc=4 ");
        }
        Path x = Files.createDirectories(tmp.resolve("x"));
        assertThat(new ProcessBuilder("tar", "-xzf", out.resolve("gpu-check.tar.gz").toString(), "-C", x.toString())
                .start().waitFor()).isZero();
        assertThat(Files.readString(x.resolve("gpu-check/plain/harness.txt")))
                .contains("HARNESS_NO_REPLAY=1: nothing measured, nothing replayed").doesNotContain("# replaying ");
    }

    /** The build's own timeout, with a make that never ends: said in the summary, and the sweeps still run. */
    @Test
    @Timeout(value = GENEROUS_S, unit = TimeUnit.SECONDS)
    void aBuildThatNeverEndsStopsAtItsOwnTimeoutAndTheHarnessStepsStillRun() throws Exception {
        Path bin = tmp.resolve("bin");
        executable(bin.resolve("make"), "#!/bin/sh\nexec sleep 100000\n");
        Path never = neverEndingJava();
        Path out = tmp.resolve("build");
        Processes.Result r = check(out, Map.of("BUILD_TIMEOUT", "2", "JAVA", never.toString(), "STEP_TIMEOUT", "1",
                "DEADLINE", "6")); // a step needs 5 s left: the first two start, the rest are skipped
        assertThat(r.rc()).as(r.out() + r.err()).isZero();
        List<String> lines = Files.readAllLines(out.resolve("summary.txt"));
        assertThat(lines).anyMatch(l -> l.matches("step build-nccl-tests +TIMEOUT after 2s .*"))
                .contains("nccl-tests build: failed, last lines:", "all_reduce_perf: none")
                .anyMatch(l -> l.matches("step gpus +TIMEOUT after 1s .*"));
    }
}
