package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.JobGroup;
import picocli.CommandLine;

/** The live wiring around native's timed loop, driven by a test double that does no GPU work. */
class LiveSweepTest {

    static SweepPlan plan(Map<String, String> env, String... args) {
        SweepRequest r = new SweepRequest();
        new CommandLine(r).parseArgs(args);
        List<String> line = new java.util.ArrayList<>(List.of("harness.jar", "sweep"));
        line.addAll(List.of(args));
        return r.plan(env, line);
    }

    static SweepProgress silent() {
        return SweepProgress.start(0);
    }

    @Test
    void cyclesTypesAndSizesRunInNcclTestsOrder() {
        SweepPlan p = plan(Map.of(), "-b", "1K", "-e", "8K", "-c", "0", "-N", "2", "-d", "all", "-n", "2");
        NoGpuBackend be = new NoGpuBackend(2);
        LiveSweep.Measured m = LiveSweep.measure(p, be, JobGroup.single(), p.sizes(), p.maxBytes(), silent(), null);
        int types = org.ncclharness.gpu.DataType.values().length;
        assertThat(m.rows()).hasSize(2 * types * 4);
        // Per datatype: one warm-up, then -N cycles of the size list (nccl-tests' TimeTest).
        assertThat(m.rows().get(0).type()).isEqualTo("int8");
        assertThat(m.rows().get(4).type()).isEqualTo("int8");
        assertThat(m.rows().get(4).sizeBytes()).isEqualTo(1024);
        assertThat(m.rows().get(8).type()).isEqualTo("uint8");
        assertThat(m.rows()).allMatch(r -> r.outOfPlace().wrong() == null);
        assertThat(be.launches).isPositive();
    }

    @Test
    void rootMinusOneLoopsOverEveryRankForRootedCollectives() {
        SweepPlan p = plan(Map.of(), "--collective", "broadcast", "-r", "-1", "-b", "1K", "-e", "1K", "-c", "0");
        LiveSweep.Measured m = LiveSweep.measure(p, new NoGpuBackend(4), JobGroup.single(), p.sizes(), p.maxBytes(), silent(), null);
        assertThat(m.rows()).extracting(r -> r.root()).containsExactly(0, 1, 2, 3);
        assertThat(m.rows()).allMatch(r -> r.redop().equals("none"));
    }

    @Test
    void perIterationSamplesTravelWithTheirRow() {
        SweepPlan p = plan(Map.of(), "-b", "1K", "-e", "2K", "-c", "0", "-I", "1", "-n", "5");
        LiveSweep.Measured m = LiveSweep.measure(p, new NoGpuBackend(2), JobGroup.single(), p.sizes(), p.maxBytes(), silent(), null);
        assertThat(m.perIteration()).hasSize(4);
        assertThat(m.perIteration().get(2).row()).isEqualTo(1);
        assertThat(m.perIteration().get(0).timesUs()).hasSize(5);
    }

    @Test
    void theFastestAndSlowestProcessOfEveryRowReachTheJsonAndReadBack(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws java.io.IOException {
        java.nio.file.Path json = dir.resolve("out.json");
        SweepPlan p = plan(Map.of(), "-b", "1K", "-e", "2K", "-c", "0", "-n", "3", "--no-calibrate", "-J",
                json.toString());
        LiveSweep.Measured m = LiveSweep.measure(p, new NoGpuBackend(2), JobGroup.single(), p.sizes(), p.maxBytes(), silent(), null);
        assertThat(m.rankTimes()).hasSize(2 * m.rows().size());
        // One process: its own time is the fastest and the slowest, and -a 1's mean of one.
        assertThat(m.rankTimes()).allSatisfy(t -> {
            var row = m.rows().get(t.row());
            double reported = (t.placement() == org.ncclharness.calibration.measure.Placement.OUT_OF_PLACE
                    ? row.outOfPlace() : row.inPlace()).timeUs();
            assertThat(t.minUs()).isEqualTo(t.maxUs()).isCloseTo(reported, org.assertj.core.data.Offset.offset(1e-9));
        });
        Sweep s = new Sweep(new Provenance(SourceKind.STORED, "test", null, "test data"), Collective.ALL_REDUCE,
                RunInfo.unknown(), Hardware.unknown(), List.of(), m.rows(), List.of());
        new SweepOutputs(p, new PrintWriter(new StringWriter())).emit(List.of(new SweepResult(Combination.auto(),
                List.of(), s, m.perIteration(), m.rankTimes())), List.of(), new SweepOutputs.RunFacts(null, null, null,
                null, List.of(), org.ncclharness.calibration.format.SweepJson.object()));
        var back = org.ncclharness.calibration.format.SweepJson.read(json.toString(), java.nio.file.Files.readString(json));
        assertThat(back.rankTimes()).isEqualTo(m.rankTimes());
    }

    @Test
    void aMatrixPrintsOneTablePerCombinationThenTheFastest() {
        SweepPlan p = plan(Map.of(), "-b", "1K", "-e", "2K", "--algo", "Ring,Tree", "--no-calibrate", "-c", "0");
        List<SweepResult> results = List.of(result(p, "Ring", 1.0), result(p, "Tree", 0.5));
        StringWriter sw = new StringWriter();
        new SweepOutputs(p, new PrintWriter(sw)).emit(results, List.of("# test data"),
                new SweepOutputs.RunFacts(null, null, null, null, List.of(), org.ncclharness.calibration.format.SweepJson.object()));
        String out = sw.toString();
        assertThat(out).contains("# combination Ring/auto (NCCL_ALGO=Ring NCCL_PROTO=(unset)); NCCL ran: not known");
        assertThat(out).contains("# fastest combination per size");
        assertThat(out.lines().filter(l -> l.trim().startsWith("1024 ") && l.trim().endsWith("Tree/auto"))).hasSize(1);
        // Both tables read back.
        assertThat(Inputs.parse("stdout", out)).hasSize(2);
    }

    @Test
    void childrenGetTheSweepWithoutTheParentsOwnFlags() {
        List<String> args = List.of("harness.jar", "sweep", "-b", "1K", "-e8G", "--algo", "Ring,Tree", "--proto=LL",
                "-J", "out.json", "--csv", "x.csv", "--force", "-n", "50", "--iters=7", "-g", "8", "--no-calibrate");
        assertThat(CombinationRuns.childArgs(args, false)).containsExactly("-b", "1K", "-e8G", "-n", "50",
                "--iters=7", "-g", "8");
        assertThat(CombinationRuns.childArgs(args, true)).containsExactly("-b", "1K", "-e8G", "-g", "8");
    }

    @Test
    void eachCombinationRunsInAChildWithItsNcclEnvironment(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        // Without a GPU the children replay; what is tested is the plumbing: arguments, environment, read-back.
        org.junit.jupiter.api.Assumptions.assumeFalse(org.ncclharness.gpu.Gpus.probe().ok());
        SweepPlan p = plan(Map.of(), "--dataset", "a100_allreduce_16gpu_2node_oci_roce", "-b", "1M", "-e", "4M",
                "--algo", "Ring,Tree", "--proto", "Simple", "-J", dir.resolve("parent.json").toString());
        List<SweepResult> results = new CombinationRuns(dir, 120).run(p, 16);
        assertThat(results).extracting(r -> r.requested().label()).containsExactly("Ring/Simple", "Tree/Simple");
        assertThat(results.get(0).sweep().rows()).hasSize(3);
        var env = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("c1.json").toFile()).path("env");
        assertThat(env.toString()).contains("NCCL_ALGO=Tree").contains("NCCL_PROTO=Simple");
        assertThat(java.nio.file.Files.readString(dir.resolve("c0-tuning.out"))).contains("# replay of stored");
        assertThat(dir.resolve("parent.json")).doesNotExist();
    }

    @Test
    void whatNcclRanIsReadFromTheTuningLogPerSize() {
        SweepPlan p = plan(Map.of(), "-b", "1M", "-e", "2M");
        List<org.ncclharness.calibration.measure.Measurement> rows = p.sizes().stream().map(s ->
                new org.ncclharness.calibration.measure.Measurement(s, s / 4, "float", "sum", -1, null, null)).toList();
        List<String> log = List.of(
                "host:1:2 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..7}",
                "host:1:2 [0] NCCL INFO AllReduce: 2097152 Bytes -> Algo RING proto LL128 channel{Lo..Hi}={0..7}");
        assertThat(CombinationRuns.ran(p, rows, log, 8)).containsExactly("1048576: RING/LL", "2097152: RING/LL128");
        assertThat(CombinationRuns.ran(p, rows, List.of(), 8)).isEmpty();
    }

    @Test
    void cpuTimeRowsAndTheirColumnLabel() {
        SweepPlan p = plan(Map.of(), "-b", "1K", "-e", "1K", "-c", "0", "-C", "1", "--no-calibrate");
        LiveSweep.Measured m = LiveSweep.measure(p, new NoGpuBackend(2), JobGroup.single(), p.sizes(), p.maxBytes(), silent(), null);
        Sweep s = new Sweep(new Provenance(SourceKind.STORED, "test", null, "test data"), Collective.ALL_REDUCE,
                RunInfo.unknown(), Hardware.unknown(), List.of(), m.rows(), List.of());
        StringWriter sw = new StringWriter();
        new SweepOutputs(p, new PrintWriter(sw)).emit(List.of(new SweepResult(Combination.auto(), List.of(), s,
                List.of())), List.of(), new SweepOutputs.RunFacts(null, null, null, null, List.of(),
                org.ncclharness.calibration.format.SweepJson.object()));
        assertThat(sw.toString()).contains("  cputime   algbw   busbw  #wrong  cputime ");
    }

    @Test
    void repeatedCyclesReportTheirSpreadPerSize() {
        SweepPlan p = plan(Map.of(), "-b", "1K", "-e", "2K", "-c", "0", "-N", "3", "--no-calibrate");
        LiveSweep.Measured m = LiveSweep.measure(p, new NoGpuBackend(2), JobGroup.single(), p.sizes(), p.maxBytes(), silent(), null);
        Sweep s = new Sweep(new Provenance(SourceKind.STORED, "test", null, "test data"), Collective.ALL_REDUCE,
                RunInfo.unknown(), Hardware.unknown(), List.of(), m.rows(), List.of());
        StringWriter sw = new StringWriter();
        new SweepOutputs(p, new PrintWriter(sw)).emit(List.of(new SweepResult(Combination.auto(), List.of(), s,
                List.of())), List.of(), new SweepOutputs.RunFacts(null, null, null, null, List.of(),
                org.ncclharness.calibration.format.SweepJson.object()));
        List<String> spread = sw.toString().lines().dropWhile(l -> !l.startsWith("# run-to-run spread over 3 cycles"))
                .toList();
        assertThat(spread).hasSizeGreaterThan(4);
        assertThat(spread.get(2).trim()).startsWith("1024 ");
        assertThat(spread.get(3).trim()).startsWith("2048 ");
        assertThat(m.rows()).hasSize(6);
    }

    @Test
    void aWrongElementMakesTheSweepExitOne() {
        SweepPlan p = plan(Map.of(), "-b", "1K", "-e", "1K", "--no-calibrate");
        List<org.ncclharness.calibration.measure.Measurement> rows = List.of(new org.ncclharness.calibration.measure
                .Measurement(1024, 256, "float", "sum", -1, new org.ncclharness.calibration.measure.Half(10.0, 0.1, 0.2,
                3.0), new org.ncclharness.calibration.measure.Half(10.0, 0.1, 0.2, 0.0)));
        Sweep s = new Sweep(new Provenance(SourceKind.STORED, "test", null, "test data"), Collective.ALL_REDUCE,
                RunInfo.unknown(), Hardware.unknown(), List.of(), rows, List.of());
        StringWriter sw = new StringWriter();
        int rc = new SweepOutputs(p, new PrintWriter(sw)).emit(List.of(new SweepResult(Combination.auto(), List.of(), s,
                List.of())), List.of(), new SweepOutputs.RunFacts(null, null, null, null, List.of(),
                org.ncclharness.calibration.format.SweepJson.object()));
        assertThat(rc).isEqualTo(1);
        assertThat(sw.toString()).contains("# Out of bounds values : 1 FAILED");
        // the same rows replayed are another machine's: printed as nccl-tests would, not judged for this one
        StringWriter replayed = new StringWriter();
        int replayRc = new SweepOutputs(plan(Map.of(), "-b", "1K", "-e", "1K", "--no-calibrate", "--min-busbw", "100"),
                new PrintWriter(replayed)).emit(List.of(new SweepResult(Combination.auto(), List.of(), s.withProvenance(
                        new Provenance(SourceKind.REPLAY, "test", "test", Provenance.REPLAY_LABEL + "test")),
                List.of())), List.of(), new SweepOutputs.RunFacts(null, null, null, null, List.of(),
                org.ncclharness.calibration.format.SweepJson.object()));
        assertThat(replayRc).isZero();
        assertThat(replayed.toString()).contains("# Out of bounds values : 1 FAILED")
                .containsPattern("# Avg bus bandwidth    : [0-9.]+ NOT-JUDGED\n")
                .contains("# --min-busbw / NCCL_TESTS_MIN_BW (average 0.2 GB/s, gate 0.9 x 100 GB/s) and #wrong (1"
                        + " result above 0) not judged: this table is a replay, another machine's stored"
                        + " measurements, not this one's (exit 0)");
    }

    /**
     * Rows timed on a test clock ran here: their #wrong is this run's data check and fails the sweep as a measured
     * table's does, while --min-busbw, a gate on times, is not judged and says why; without #wrong the exit is 0
     * however far below the gate the clock's arithmetic puts the average.
     */
    @Test
    void aTestClockTableIsJudgedByItsWrongResultsButNotByMinBusBw() {
        Provenance clock = new Provenance(SourceKind.TEST_CLOCK, "h0", null, Provenance.TEST_CLOCK_LABEL
                + "the clock in /tmp/c (-Dnccl-harness.loop-clock-file); on 1 host(s) from h0 by nccl-harness");
        org.ncclharness.calibration.measure.Half clean = new org.ncclharness.calibration.measure.Half(10.0, 0.1, 0.2,
                0.0);
        for (double wrong : new double[] {3.0, 0.0}) {
            Sweep s = new Sweep(clock, Collective.ALL_REDUCE, RunInfo.unknown(), Hardware.unknown(), List.of(),
                    List.of(new org.ncclharness.calibration.measure.Measurement(1024, 256, "float", "sum", -1,
                            new org.ncclharness.calibration.measure.Half(10.0, 0.1, 0.2, wrong), clean)), List.of());
            StringWriter sw = new StringWriter();
            int rc = new SweepOutputs(plan(Map.of(), "-b", "1K", "-e", "1K", "--no-calibrate", "--min-busbw", "100"),
                    new PrintWriter(sw)).emit(List.of(new SweepResult(Combination.auto(), List.of(), s, List.of())),
                    List.of(), new SweepOutputs.RunFacts(null, null, null, null, List.of(),
                            org.ncclharness.calibration.format.SweepJson.object()));
            assertThat(rc).as(sw.toString()).isEqualTo(wrong > 0 ? 1 : 0);
            assertThat(sw.toString()).containsPattern("# Avg bus bandwidth    : [0-9.]+ NOT-JUDGED\n")
                    .contains("# --min-busbw / NCCL_TESTS_MIN_BW (average 0.2 GB/s, gate 0.9 x 100 GB/s) not judged:"
                            + " this table's times were read from a test clock, not the GPU's"
                            + " (-Dnccl-harness.loop-clock-file), a stand-in's arithmetic; its #wrong is judged as a"
                            + " measured table's (the buffers NCCL wrote were checked), so only #wrong decides the"
                            + " exit")
                    .doesNotContain("#wrong (1 result").doesNotContain("another machine's");
        }
    }

    @Test
    void flagsTheGpuPathDoesNotOfferAreRefusedThere() {
        SweepPlan p = plan(Map.of(), "-R", "1");
        assertThatThrownBy(() -> new LiveSweep(p, null, new PrintWriter(new StringWriter())).run(null, null))
                .hasMessageContaining("-R 1: not offered");
    }

    @Test
    void ncclTestsEnvironmentIsRead() {
        SweepPlan p = plan(Map.of("NCCL_TESTS_MIN_BW", "150", "NCCL_TESTS_DEVICE", "2", "NCCL_TESTS_SPLIT", "MOD 2"));
        assertThat(p.minBusBwGBps()).isEqualTo(150.0);
        assertThat(p.testsDevice()).isEqualTo(2);
        assertThat(p.split().colour(5)).isEqualTo(1);
        assertThat(plan(Map.of("NCCL_TESTS_SPLIT_MASK", "0x6")).split().colour(7)).isEqualTo(6);
        assertThat(plan(Map.of("NCCL_TESTS_SPLIT", "&0b10")).split().colour(3)).isEqualTo(2);
        assertThat(plan(Map.of("NCCL_TESTS_SPLIT", "DIV 4")).split().colour(9)).isEqualTo(2);
        assertThatThrownBy(() -> plan(Map.of("NCCL_TESTS_SPLIT", "XOR 1"))).hasMessageContaining("NCCL_TESTS_SPLIT");
        assertThatThrownBy(() -> plan(Map.of("NCCL_TESTS_MIN_BW", "fast"))).hasMessageContaining("NCCL_TESTS_MIN_BW");
        for (String bad : new String[] {"NaN", "-5", "0", "Infinity", "1e999"}) {
            assertThatThrownBy(() -> plan(Map.of("NCCL_TESTS_MIN_BW", bad))).as(bad)
                    .hasMessageContaining("invalid NCCL_TESTS_MIN_BW: '" + bad + "' is not a bandwidth");
        }
        assertThat(plan(Map.of("NCCL_TESTS_MIN_BW", "150"), "--min-busbw", "10").minBusBwGBps()).isEqualTo(10.0);
    }

    @Test
    void defaultStepIsFactorTwoAndAnAdditiveStepIsKept() {
        assertThat(plan(Map.of(), "-b", "1K", "-e", "8G").sizes()).hasSize(24);
        assertThat(plan(Map.of(), "-b", "1K", "-e", "8G").step()).isEqualTo("2(factor)");
        SweepPlan add = plan(Map.of(), "-b", "1M", "-e", "4M", "-i", "1M");
        assertThat(add.sizes()).containsExactly(1L << 20, 2L << 20, 3L << 20, 4L << 20);
        assertThat(add.step()).isEqualTo("1048576(bytes)");
        assertThat(plan(Map.of()).sizes()).containsExactly(32L << 20);
    }

    private static SweepResult result(SweepPlan p, String algo, double timeScale) {
        List<org.ncclharness.calibration.measure.Measurement> rows = p.sizes().stream().map(s ->
                new org.ncclharness.calibration.measure.Measurement(s, s / 4, "float", "sum", -1,
                        new org.ncclharness.calibration.measure.Half(10.0 * timeScale, 1.0, 1.0, null),
                        new org.ncclharness.calibration.measure.Half(10.0 * timeScale, 1.0, 1.0, null))).toList();
        Sweep s = new Sweep(new Provenance(SourceKind.STORED, "test", null, "test data"), Collective.ALL_REDUCE,
                RunInfo.unknown(), Hardware.unknown(), List.of(), rows, List.of());
        return new SweepResult(new Combination(algo, null), List.of(), s, List.of());
    }

    @Test
    void aHostSideCheckAtGibSizesIsAnnouncedOnceAndNotWithMinusCZero() {
        assertThat(LiveSweep.slowCheckNote(1, 8L << 30)).hasValueSatisfying(n -> assertThat(n)
                .startsWith("note: -c 1 checks every result on the host").endsWith("-c 0 skips it"));
        assertThat(LiveSweep.slowCheckNote(0, 8L << 30)).isEmpty();
        assertThat(LiveSweep.slowCheckNote(1, (1L << 30) - 1)).isEmpty();
    }
}
