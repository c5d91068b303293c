package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ncclharness.harness.exit.ExitCode;

/**
 * The real JNI path under a real mpirun: {@code harness.jar sweep} through the JavaCPP bindings it ships, into the
 * gcc-built stand-ins of libcudart.so.13 and libnccl.so.2 ({@link StandIns}), whose collectives reduce across the
 * two processes through shared memory. Not the Java test double: every call crosses the same JNI the GPU path
 * does.
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class StandInSweepIT extends UsesStandIns {

    @TempDir
    Path tmp;

    private Processes.Result sweep(Map<String, String> extra, String... args) throws Exception {
        return standIns.sweep(tmp, extra, List.of(args));
    }

    /** Rank 0's table rows (the lines that start with a size), tags removed. */
    private static List<String[]> rows(Processes.Result r) {
        String tag = "[1,0]<stdout>:";
        return r.outLines().stream().filter(l -> l.startsWith(tag)).map(l -> l.substring(tag.length()))
                .filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+\\S+.*")).map(l -> l.trim().split("\\s+")).toList();
    }

    @Test
    void theStandInsExportEverySymbolTheJniLibrariesReferenceUnderTheirVersions() throws Exception {
        standIns.assertExportEverythingNeededBy(standIns.jni());
        assertThat(StandIns.run(List.of("readelf", "-V", standIns.dir().resolve(standIns.cudart()).toString())))
                .contains("Name: " + standIns.cudart());
    }

    /**
     * The jar's linux-arm64 JNI libraries (Grace hosts) reference nothing the stand-ins lack either, so the same
     * C sources stand in on an arm64 machine. binutils' nm reads the foreign ELF (Debian builds it for every
     * target); the file check makes sure it was the arm64 copy that was read.
     */
    @Test
    void theStandInsExportEverySymbolTheArm64JniLibrariesReference() throws Exception {
        Path jni = java.nio.file.Files.createDirectories(tmp.resolve("jni-arm64"));
        StandIns.extractJni(Processes.JAR, "linux-arm64", jni);
        assertThat(StandIns.run(List.of("readelf", "-h", jni.resolve("libjninccl.so").toString())))
                .containsPattern("Machine:\\s+AArch64");
        standIns.assertExportEverythingNeededBy(jni);
    }

    /**
     * A driver that supports only CUDA 12.4 cannot run this jar's CUDA 13 runtime: gpus names the build that runs
     * on it (gpu/cuda-builds.json) and exits 3; doctor says which build it is and which one the driver needs.
     */
    @Test
    void aCuda12DriverIsToldToUseHarnessCuda12Jar() throws Exception {
        Map<String, String> env = standIns.environment(1, Map.of("STANDIN_DRIVER_CUDA", "12040"));
        Processes.Result gpus = Processes.run(Processes.harness("gpus", "--nccl-lib", standIns.dir().toString()), env,
                tmp, "gpus", Processes.HANG_S);
        assertThat(gpus.rc()).as(gpus.out() + gpus.err()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(gpus.err()).contains("error: DRIVER_TOO_OLD: the driver supports CUDA 12.4, below harness.jar's"
                + " CUDA 13.0: use harness-cuda12.jar (libcudart.so.12; drivers supporting CUDA 12.0+, R525 on)");
        Processes.Result doctor = Processes.run(Processes.harness("doctor", "--nccl-lib", standIns.dir().toString()),
                env, tmp, "doctor", Processes.HANG_S);
        assertThat(doctor.rc()).as(doctor.out() + doctor.err()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(doctor.out()).contains("rank 0/1 build: harness.jar (libcudart.so.13; drivers supporting CUDA"
                + " 13.0+, R580 on); for this driver (CUDA 12.4): harness-cuda12.jar");
    }

    @Test
    void twoRanksSweepThroughTheRealBindingsWithNothingWrong() throws Exception {
        Processes.Result r = sweep(Map.of(), "-b", "8", "-e", "1M");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("Stand-in GPU (host memory)").contains("# Out of bounds values : 0 OK");
        // teardown as nccl-tests': communicators destroyed before their buffers are freed (the stand-in says if not)
        assertThat(r.err()).doesNotContain("buffers freed before ncclCommDestroy");
        List<String[]> rows = rows(r);
        assertThat(rows).hasSize(18);
        // NCCL_DEBUG unset: the sweep ran again with NCCL's INFO lines going to files, and rank 0 says what they tell
        assertThat(r.err()).contains("[1,0]<stderr>:# which transports NCCL used, from its INFO lines")
                .contains("[1,0]<stderr>:intra-node: SHM/direct/direct (2)").contains("P2P_OFF");
        assertThat(r.out()).doesNotContain("NCCL INFO");
        for (String[] row : rows) {
            assertThat(row[8]).as("out-of-place #wrong at %s B", row[0]).isEqualTo("0");
            assertThat(row[12]).as("in-place #wrong at %s B", row[0]).isEqualTo("0");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--no-diagnose", "NCCL_DEBUG=WARN"})
    void noDiagnosisWhereTheUserSaidNoOrSetNcclDebugThemselves(String how) throws Exception {
        Processes.Result r = how.startsWith("--") ? sweep(Map.of(), "-b", "8", "-e", "1K", how)
                : sweep(Map.of("NCCL_DEBUG", "WARN"), "-b", "8", "-e", "1K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(rows(r)).hasSize(8);
        assertThat(r.err()).doesNotContain("which transports NCCL used");
    }

    @Test
    void aCorruptedElementIsCountedAndTheExitIsOne() throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_CORRUPT", "1"), "-b", "8", "-e", "1K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(rows(r)).allSatisfy(row -> assertThat(Long.parseLong(row[8])).isPositive());
    }

    @Test
    void aHungCollectiveIsAbortedByTheTimeoutWithExitFour() throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_HANG", "1"), "-b", "8", "-e", "1K", "-T", "5");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(4);
        assertThat(r.out() + r.err()).contains("did not complete within 5 s (-T); communicators aborted");
    }

    /**
     * Rank 1 dies while rank 0 waits on a stream that never finishes: the job's failure hook only asks, and rank
     * 0's own polling loop aborts its communicator (NCCL forbids two threads on one) and says so, well before the
     * 5 s halt that backs it up. mpirun is held meanwhile ({@link HeldLauncher}), so it can neither kill rank 0
     * before it ends by itself nor decide by the scheduler's luck which exit it reports: each rank's own exit is
     * read instead, rank 1 the stand-in's 9, rank 0 the harness's 4. mpirun then reports whichever it reaps first
     * (Open MPI's choice, see docs/launch.md); the line that names the lost rank is rank 0's.
     */
    @Test
    void aPeerThatDiesIsMetByTheSurvivorsPollingLoopWhichAbortsAndExitsFour() throws Exception {
        Map<String, String> env = standIns.environment(4, Map.of("STANDIN_HANG", "1", "STANDIN_DIE_RANK", "1"));
        Process mpirun = Processes.start(standIns.sweepCommand(env, List.of("-b", "8", "-e", "1K")), env, tmp,
                "sweep");
        try {
            Map<Integer, Integer> exits;
            try (HeldLauncher held = HeldLauncher.hold(mpirun, 2)) {
                exits = held.awaitExits();
            }
            assertThat(mpirun.waitFor(Processes.HANG_S, TimeUnit.SECONDS)).isTrue();
            Processes.Result r = Processes.result(mpirun, tmp, "sweep", 0);
            assertThat(exits).as(r.out() + r.err()).isEqualTo(Map.of(0, ExitCode.JOB, 1, 9));
            assertThat(r.out() + r.err()).containsPattern("\\[1,0\\]<stderr>:the job failed \\(rank 1 .*was lost"
                    + " .*: connection closed \\(the process died or was killed\\)\\): communicators aborted");
            assertThat(r.rc()).as(r.out() + r.err()).isIn(ExitCode.JOB, 9);
        } finally {
            mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
            mpirun.destroyForcibly();
        }
    }

    @Test
    void anNcclErrorIsNamedWithExitFour() throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_NCCL_ERROR", "2"), "-b", "8", "-e", "1K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(4);
        assertThat(r.out() + r.err()).contains("AllReduce: unhandled system error (stand-in) (2)");
    }

    /**
     * With the test-clock seam on (the stand-ins' virtual clock, as BringupIT times by), the timed loop's times are
     * not the GPU's: the table's heading, the CSV and the JSON say so, and check and calibrate reading those files back
     * say the rows were not measured.
     */
    @Test
    void aSweepTimedOnTheTestClockIsLabelledNotMeasuredInEveryFileAndReadsBackSo() throws Exception {
        Map<String, String> env = standIns.environment(4, Map.of());
        Path csv = tmp.resolve("clock.csv");
        Path json = tmp.resolve("clock.json");
        // each process its own virtual clock, which its stand-in advances and its timed loop reads
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "export STANDIN_VIRTUAL_CLOCK=\"$1$OMPI_COMM_WORLD_RANK\";"
                + " export JAVA_TOOL_OPTIONS=\"$JAVA_TOOL_OPTIONS -Dnccl-harness.loop-clock-file=$STANDIN_VIRTUAL_CLOCK\";"
                + " shift; exec \"$@\"", "sh", tmp.resolve("clock.").toString()));
        cmd.addAll(Processes.harness("sweep", "--nccl-lib", standIns.dir().toString(), "-b", "8", "-e", "1M",
                "--no-diagnose", "--csv", csv.toString(), "-J", json.toString()));
        Processes.Result r = Processes.runMpirun(Processes.mpirun(2, StandIns.exports(env), cmd), env, tmp, "sweep",
                Processes.HANG_S);
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        String label = "NOT MEASURED, timed by a test clock: the clock in " + tmp.resolve("clock.0")
                + " (-Dnccl-harness.loop-clock-file)";
        assertThat(r.out()).contains("[1,0]<stdout>:# " + label);
        assertThat(csv).content().contains(",test-clock,\"" + label);
        assertThat(json).content().contains(label);
        for (Path f : List.of(csv, json)) {
            org.ncclharness.harness.CliRun check = org.ncclharness.harness.CliRun.of("check", f.toString());
            assertThat(check.out()).as("%s: %s", f, check.err()).contains("WARN: these numbers were not measured ("
                    + label).contains("the timed loop read a test clock");
            org.ncclharness.harness.CliRun fit = org.ncclharness.harness.CliRun.of("calibrate", f.toString(),
                    "--interconnect", "PCIe4");
            assertThat(fit.out()).as("%s: %s", f, fit.err()).contains(": " + label);
        }
        // gpus --smoke prints a time of the same loop: on the test clock it says so too
        Path smokeClock = tmp.resolve("smoke.clock");
        Map<String, String> smokeEnv = new java.util.HashMap<>(standIns.environment(1, Map.of(
                "STANDIN_VIRTUAL_CLOCK", smokeClock.toString())));
        smokeEnv.put("JAVA_TOOL_OPTIONS", smokeEnv.get("JAVA_TOOL_OPTIONS") + " -Dnccl-harness.loop-clock-file="
                + smokeClock);
        Processes.Result smoke = Processes.run(Processes.harness("gpus", "--smoke", "--nccl-lib",
                standIns.dir().toString()), smokeEnv, tmp, "smoke", Processes.HANG_S);
        assertThat(smoke.rc()).as(smoke.out() + smoke.err()).isEqualTo(ExitCode.OK);
        assertThat(smoke.out()).contains("1 MiB out-of-place").contains(" us (NOT MEASURED, timed by a test clock: the"
                + " clock in " + smokeClock + " (-Dnccl-harness.loop-clock-file))");
    }

    /**
     * The test clock makes the times a stand-in's arithmetic, not the data check: a corrupted element on a sweep timed
     * by it still fails the run (exit 1, as aCorruptedElementIsCountedAndTheExitIsOne), while --min-busbw, a gate on
     * times, is not judged and a line says so.
     */
    @Test
    void aSweepTimedOnTheTestClockStillFailsOnWrongResultsButDoesNotJudgeMinBusBw() throws Exception {
        Map<String, String> env = standIns.environment(4, Map.of("STANDIN_CORRUPT", "1"));
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "export STANDIN_VIRTUAL_CLOCK=\"$1$OMPI_COMM_WORLD_RANK\";"
                + " export JAVA_TOOL_OPTIONS=\"$JAVA_TOOL_OPTIONS -Dnccl-harness.loop-clock-file=$STANDIN_VIRTUAL_CLOCK\";"
                + " shift; exec \"$@\"", "sh", tmp.resolve("clock.").toString()));
        cmd.addAll(Processes.harness("sweep", "--nccl-lib", standIns.dir().toString(), "-b", "8", "-e", "1K",
                "--no-diagnose", "--min-busbw", "100000"));
        Processes.Result r = Processes.runMpirun(Processes.mpirun(2, StandIns.exports(env), cmd), env, tmp, "sweep",
                Processes.HANG_S);
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.FAIL);
        assertThat(r.out()).contains("[1,0]<stdout>:# NOT MEASURED, timed by a test clock: ");
        assertThat(rows(r)).isNotEmpty().allSatisfy(row -> assertThat(Long.parseLong(row[8])).isPositive());
        assertThat(r.out()).containsPattern("Avg bus bandwidth    : [0-9.]+ NOT-JUDGED")
                .contains("gate 0.9 x 100000 GB/s) not judged: this table's times were read from a test clock")
                .contains("so only #wrong decides the exit").doesNotContain("another machine's");
    }

    @Test
    void ncclTestsSplitRunsOneCommunicatorPerColour() throws Exception {
        // -z 1: under a split the barrier inside the loop is the job's own, not NCCL's
        Processes.Result r = sweep(Map.of("NCCL_TESTS_SPLIT", "MOD 2"), "-b", "8", "-e", "1K", "-z", "1",
                "--no-diagnose");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("Group  1");
        assertThat(rows(r)).isNotEmpty().allSatisfy(row -> assertThat(row[8]).isEqualTo("0"));
    }

    /**
     * AllToAll as nccl-tests runs it on each side of NCCL 2.28: ncclAlltoAll from 2.28 on, grouped send/recv below
     * (the stand-in refuses ncclAlltoAll when it reports 2.27.3, so only the send/recv path can check out there).
     * Like the split and the loop modes, without the NCCL_DEBUG pass: one JVM per rank, not two.
     */
    @ParameterizedTest
    @ValueSource(strings = {"22703", "22803"})
    void allToAllRunsOnEitherSideOfNccl228(String version) throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_NCCL_VERSION", version), "--collective", "alltoall", "-b", "8",
                "-e", "4K", "-g", "2", "--no-diagnose");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("nccl-library=" + version);
        assertThat(rows(r)).hasSize(10).allSatisfy(row -> assertThat(row[8]).isEqualTo("0"));
    }

    /** The loop modes {@link #everyLoopModeRunsAndChecksOut} runs: {@code -d all} at 8 to 64 B, the rest 8 B-4 KiB. */
    static List<String> loopModes() {
        return List.of("-z 1", "-z 2", "-z 3", "-m 2", "-I 1", "-G 2", "-e 64 -d all", "-o all", "-c 0", "-g 2", "-t 2",
                "-g 2 -G 2", "-g 2 -m 2", "-g 2 -z 3", "-z 1 -m 2", "--collective sendrecv",
                "--collective sendrecv -g 2 -G 2", "-g 2 -o mulsum", "-g 2 -o mulsum -d half");
    }

    @TempDir
    static Path loopModesDir;
    private static Processes.Result loopModesJob;

    /**
     * Every loop mode's sweep, one after another in the same two rank JVMs ({@link CommandsMain}): the subject is
     * what each mode does through the JNI path, not the JVM's start, which the other tests here cover (and the
     * NCCL_DEBUG pass, {@link #twoRanksSweepThroughTheRealBindingsWithNothingWrong}'s subject, is off). Each sweep
     * creates and destroys its own communicators as a lone one does.
     */
    private static synchronized Processes.Result loopModesJob() throws Exception {
        if (loopModesJob == null) {
            List<List<String>> lines = new ArrayList<>();
            for (String mode : loopModes()) {
                List<String> line = new ArrayList<>(lines.isEmpty()
                        ? List.of("sweep", "--nccl-lib", standIns.dir().toString()) : List.of("sweep"));
                line.addAll(List.of("-b", "8", "--no-diagnose"));
                if (!mode.startsWith("-e ")) {
                    line.addAll(List.of("-e", "4K"));
                }
                line.addAll(List.of(mode.split(" ")));
                lines.add(line);
            }
            loopModesJob = CommandsMain.twoRanks(Processes.JAR, standIns.environment(4, Map.of()), lines,
                    loopModesDir);
        }
        return loopModesJob;
    }

    @ParameterizedTest
    @MethodSource("loopModes")
    void everyLoopModeRunsAndChecksOut(String flags) throws Exception {
        int k = loopModes().indexOf(flags);
        Processes.Result job = loopModesJob();
        for (int rank : List.of(0, 1)) {
            Processes.Result r = CommandsMain.part(job, k, rank);
            assertThat(r.rc()).as("rank %d: %s%n%s%s", rank, flags, r.out(), r.err()).isEqualTo(ExitCode.OK);
        }
        assertThat(rows(CommandsMain.part(job, k, 0))).as(flags).isNotEmpty();
    }
}
