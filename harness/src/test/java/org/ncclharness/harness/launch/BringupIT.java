package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.figure.HeadlessChromium;
import org.ncclharness.harness.figure.Images;

/**
 * {@code bringup} end to end under a real mpirun, four processes on four simulated hosts (each rank's
 * HARNESS_HOST_ID set by its own shell: {@code host0} … {@code host3}), every call through the real JNI
 * bindings into the CUDA/NCCL stand-ins ({@link StandIns}), whose STANDIN_SLOW_HOST plants a slow host: its
 * ranks take STANDIN_SLOW_US_PER_MIB more per MiB on every communicator that reaches another host (a bad NIC), or on
 * all of them with STANDIN_SLOW_SCOPE=any (a bad host). Time is virtual (STANDIN_VIRTUAL_CLOCK, which the timed loop
 * reads through its {@code nccl-harness.loop-clock-file} seam): each launch costs what the stand-in's formula says, so
 * four JVMs on a loaded machine measure what an idle one does, to the digit, and the steps are judged by bringup's
 * default thresholds.
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class BringupIT extends UsesStandIns {

    /**
     * host2 at about half speed where its fault applies: 100 µs more per MiB, on the 110 µs the stand-in's formula
     * gives 1 MiB (5 µs + 1 MiB at 10 GB/s), so it moves 1 MiB in 210 µs: 52 % of a healthy host's speed.
     */
    private static final Map<String, String> HALF_SPEED_HOST2 = Map.of("STANDIN_SLOW_HOST", "host2",
            "STANDIN_SLOW_US_PER_MIB", "100");

    @TempDir
    Path tmp;

    /** Four processes, one per simulated host, each driving {@code gpus} stand-in GPUs, each step run twice. */
    private Processes.Result bringup(Map<String, String> extra, int gpus, String... args) throws Exception {
        return bringup(extra, gpus, 2, args);
    }

    /**
     * The same with each step run {@code cycles} times (-N): 4 timed iterations after 1 warm-up, the median run
     * kept.
     */
    private Processes.Result bringup(Map<String, String> extra, int gpus, int cycles, String... args)
            throws Exception {
        Map<String, String> env = standIns.environment(2, extra);
        // one process per simulated host: mpirun, which sees one machine, must not say what is local (so the job
        // needs a rendezvous address, as a real multi-host one does)
        // and each process its own virtual clock, which the stand-in advances and the harness's timed loop reads
        String clock = tmp.resolve("clock.").toString();
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "export HARNESS_HOST_ID=host$OMPI_COMM_WORLD_RANK;"
                + " export STANDIN_VIRTUAL_CLOCK=\"$1$OMPI_COMM_WORLD_RANK\";"
                + " export JAVA_TOOL_OPTIONS=\"$JAVA_TOOL_OPTIONS"
                + " -Dnccl-harness.loop-clock-file=$STANDIN_VIRTUAL_CLOCK\";"
                + " unset OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_LOCAL_SIZE; shift; exec \"$@\"", "sh", clock));
        List<String> harness = new ArrayList<>(List.of("bringup", "--nccl-lib", standIns.dir().toString(), "-g",
                Integer.toString(gpus), "-n", "4", "-w", "1", "-N", Integer.toString(cycles), "--rendezvous",
                "tcp://127.0.0.1:" + Processes.freePort()));
        harness.addAll(List.of(args));
        cmd.addAll(Processes.harness(harness.toArray(String[]::new)));
        return Processes.runMpirun(Processes.mpirun(4, StandIns.exports(env), cmd), env, tmp, "bringup",
                Processes.HANG_S);
    }

    /**
     * Rank 0's stdout, tags removed, also those mpirun puts inside a line where a read of the rank's pipe ended
     * mid-line (only rank 0 prints to stdout).
     */
    private static String rank0(Processes.Result r) {
        String tag = "[1,0]<stdout>:";
        return String.join("\n", r.outLines().stream().filter(l -> l.startsWith(tag))
                .map(l -> l.replace(tag, "")).toList());
    }

    @Test
    void fourHealthyHostsGoThroughAllFourStepsAndKeepTheBaselineWhichALaterBringupComparesWith() throws Exception {
        Path first = tmp.resolve("first");
        Processes.Result r = bringup(Map.of(), 2, "-b", "64K", "-e", "1M", "-o", first.toString());
        String out = rank0(r);
        // no line rate for a stand-in GPU: check's peak rule cannot judge it and says so (WARN), never FAIL; and
        // times on the virtual clock are not measured, which every step says (WARN), as the report and its files
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        // in virtual time each figure is the formula's: 1 MiB in 5 µs + 1 MiB at 10 GB/s, on every GPU alike
        assertThat(out).contains("step 1 (every GPU alone): WARN")
                .containsPattern("rank 2 on host2, GPU 1 of its 2 +9\\.54492 +0\\.0 % +WARN")
                // -g 2: each process's second GPU is tested alone too, not only its first
                .contains("rank 3 on host3, GPU 1 of its 2").contains("rank 0 on host0, GPU 0 of its 2")
                .contains("step 2 (each host, all its GPUs):").contains("host2")
                .contains("step 3 (all hosts, largest sizes):").contains("step 4 (all hosts, every size):")
                .contains("all 4 hosts").contains("step 4 kept as the baseline")
                .doesNotContain("FAIL  ").doesNotContain("FAIL (");
        // NCCL_DEBUG unset: NCCL ran with its INFO lines in files, and the stand-in's "NCCL" talks sockets on lo
        assertThat(out).contains("diagnosis of NCCL's INFO lines").contains("inter-node: NET/Socket (8)")
                .contains("FAIL SOCKET_ON_LOOPBACK").contains("WARN P2P_OFF");
        assertThat(out).contains("(NOT MEASURED: the timed loop read a test clock)");
        assertThat(first.resolve("baseline.json")).content().contains("\"n_gpus\"")
                .contains("NOT MEASURED, timed by a test clock: the clock in " + tmp.resolve("clock."));
        assertThat(first.resolve("baseline.csv")).isNotEmptyFile();
        assertThat(first.resolve("baseline.png")).isNotEmptyFile();

        // the same cluster with a bad NIC on host2, at half speed: steps 1-2 stay on one host and pass; step 4
        // against the baseline, by bringup's default thresholds. Each step once (-N 1): in virtual time a second
        // cycle measures the same again
        Processes.Result slow = bringup(HALF_SPEED_HOST2, 2, 1, "-b", "64K", "-e", "1M",
                "--baseline", first.toString(), "-o", tmp.resolve("second").toString());
        String again = rank0(slow);
        assertThat(slow.rc()).as(slow.out() + slow.err()).isEqualTo(ExitCode.FAIL);
        assertThat(again).doesNotContain("step 1 (every GPU alone): FAIL").contains("step 2 (each host, all its GPUs): ")
                .contains("step 4 (all hosts, every size): FAIL")
                // every collective across hosts waits for host2's half-speed NIC: 110 µs of 210, to the digit
                .contains("FAIL  largest common size 1 MiB: busbw 8.74409 GB/s is 52.3 % of the reference (baseline:"
                        + " 16.7036 GB/s), below 75 %")
                .contains("Verdict: FAIL at step 4");
        assertThat(again).doesNotContain("step 2 (each host, all its GPUs): FAIL");
    }

    @Test
    void aBadHostFailsStepOneByNameAndTheFlowStopsThere() throws Exception {
        Path dir = tmp.resolve("bad");
        Map<String, String> badHost = new java.util.HashMap<>(HALF_SPEED_HOST2);
        badHost.put("STANDIN_SLOW_SCOPE", "any");
        Processes.Result r = bringup(badHost, 1, "-b", "256K", "-e", "1M", "-o", dir.toString());
        String out = rank0(r);
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.FAIL);
        assertThat(out).contains("step 1 (every GPU alone): FAIL")
                .contains("FAIL  rank 2 on host2: fastest algbw at 1 MiB 5.00 GB/s is 52 % of the median of 4 (9.54"
                        + " GB/s); FAIL below 75 %")
                .contains("step 2 (each host, all its GPUs): not run (the flow stopped at step 1)")
                .contains("step 4 (all hosts, every size): not run").contains("Verdict: FAIL at step 1");
        assertThat(dir.resolve("baseline.json")).doesNotExist();
        assertThat(dir.resolve("index.html")).content().contains("FAIL at step 1");
    }

    @Test
    void aStepThatDoesNotCompleteStillLeavesTheReportOfTheFlowSoFarAndExitsFour() throws Exception {
        Path dir = tmp.resolve("broken");
        Processes.Result r = bringup(Map.of("STANDIN_NCCL_ERROR", "2"), 1, "-b", "8", "-e", "1K", "-o", dir.toString());
        String out = rank0(r);
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.JOB);
        assertThat(out).contains("step 1 (every GPU alone): FAIL")
                .contains("FAIL  the step did not complete: ").contains("unhandled system error")
                .contains("step 2 (each host, all its GPUs): not run (the flow stopped at step 1)");
        assertThat(dir.resolve("index.html")).content().contains("the step did not complete");
    }

    @Test
    void pairsNameTheHostWhosePairsAreAllSlowAndThePageShowsTheHeatmap() throws Exception {
        Path dir = tmp.resolve("pairs");
        Processes.Result r = bringup(HALF_SPEED_HOST2, 1, "--pairs", "-b", "256K", "-e", "1M", "-o", dir.toString());
        String out = rank0(r);
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.FAIL);
        assertThat(out).contains("all pairs over 4 hosts in 3 rounds")
                .contains("FAIL  host2: all 3 of its pairs are below 75 % of the median pair (7.27 GB/s); best of"
                        + " them 5.00 GB/s")
                .contains("Verdict: FAIL: slow host host2");
        // six pairs, three of them with host2, and only those slow
        List<String> csv = Files.readAllLines(dir.resolve("pairs.csv"));
        assertThat(csv).hasSize(7);
        assertThat(csv.subList(1, 7)).allSatisfy(line -> assertThat(line.endsWith(",true"))
                .as(line).isEqualTo(line.startsWith("host2 ") || line.contains(" host2,")));

        HeadlessChromium chromium = HeadlessChromium.find(tmp);
        Path page = dir.resolve("index.html");
        Matcher img = Pattern.compile("<img\\b[^>]*>").matcher(chromium.dumpDom(page));
        assertThat(img.find()).isTrue();
        assertThat(img.group()).contains("pairs.png").contains("data-loaded=\"true\"");
        Path shot = tmp.resolve("shot.png");
        chromium.screenshot(page, shot, 1024, 1400);
        assertThat(Images.distinctColours(Images.readPng(shot), 100)).isGreaterThanOrEqualTo(100);
    }
}
