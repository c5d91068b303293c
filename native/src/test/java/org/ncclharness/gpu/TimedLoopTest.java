package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.ncclharness.calibration.measure.Collective;

/** The loop's call sequence, asserted against nccl-tests' common.cu order with a recording test double. */
class TimedLoopTest {
    private final List<String> log = new ArrayList<>();
    private long now;
    /** Advances 1 µs per read, and writes each read into the log where it happened. */
    private final LongSupplier clock = () -> {
        log.add("clock");
        now += 1000;
        return now;
    };

    private List<SizeResult> run(int locals, LoopOptions o) {
        RecordingBackend be = new RecordingBackend(locals, log);
        be.allocate(TimedLoop.bufferBytes(o.maxBytes()), TimedLoop.bufferBytes(o.maxBytes()));
        log.clear();
        return new TimedLoop(be, new RecordingGroup(log), clock).run(o);
    }

    private static LoopOptions allReduce(List<Long> sizes) {
        return LoopOptions.defaults(Collective.ALL_REDUCE, DataType.FLOAT, ReduceOp.SUM, 0, sizes)
                .withIters(1, 2, 1).withCheck(0);
    }

    @Test
    void followsNcclTestsOrderWarmUpUntimedOpBarrierClockItersWaitClock() {
        List<SizeResult> r = run(1, allReduce(List.of(8L, 16L)));
        List<String> size8 = List.of(
                // out-of-place: the untimed op, wait, barrier; clock; 2 iterations at shifting offsets; CPU
                // time; wait; clock; cross-process combination of time (mean) and CPU time (rank 0's); barrier
                "launch l0 out s0 r0 n2", "wait", "barrier",
                "clock", "launch l0 out s0 r0 n2", "launch l0 out s8 r8 n2", "clock", "wait", "clock",
                "allreduce SUM 1", "allreduce SUM 1", "allreduce MAX 2", "barrier",
                // in-place after out-of-place
                "launch l0 in s0 r0 n2", "wait", "barrier",
                "clock", "launch l0 in s0 r0 n2", "launch l0 in s8 r8 n2", "clock", "wait", "clock",
                "allreduce SUM 1", "allreduce SUM 1", "allreduce MAX 2", "barrier");
        List<String> expected = new ArrayList<>(List.of("configure ALL_REDUCE FLOAT SUM 0",
                // warm-up: barrier, then per doubling size -w operations out-of-place and one wait
                "barrier", "launch l0 out s0 r0 n2", "wait", "launch l0 out s0 r0 n4", "wait"));
        expected.addAll(size8);
        // size 16 is the maximum: one stride fits, so every iteration uses offset 0
        expected.addAll(size8.stream().map(s -> s.replace("s8 r8", "s0 r0").replace("n2", "n4")).toList());
        assertThat(log).containsExactlyElementsOf(expected);

        // time = (last clock − first clock) / (iters × agg) = 2 µs / 2; no check → #wrong N/A
        assertThat(r.get(0).outOfPlace().timeUs()).isEqualTo(1.0);
        assertThat(r.get(0).outOfPlace().cpuTimeUs()).isEqualTo(0.5);
        assertThat(r.get(0).measurement().outOfPlace().algBwGBps()).isEqualTo(8 / 1e9 / 1e-6);
        assertThat(r.get(0).measurement().outOfPlace().wrong()).isNull();
        assertThat(r.get(1).measurement().sizeBytes()).isEqualTo(16);
        assertThat(r.get(1).measurement().count()).isEqualTo(4);
        assertThat(r.get(1).measurement().redop()).isEqualTo("sum");
        assertThat(r.get(1).measurement().root()).isEqualTo(-1);
    }

    @Test
    void theLaunchPathIsWarmedUntimedOnceBeforeNcclTestsOwnWarmUp() {
        RecordingBackend be = new RecordingBackend(1, log);
        be.allocate(64, 64);
        TimedLoop loop = new TimedLoop(be, new RecordingGroup(log), clock);
        LoopOptions o = allReduce(List.of(8L, 16L)).withLaunchWarmUp(3);
        log.clear();
        loop.run(o);
        // one element per rank, whatever the sweep's smallest size: the launch path is the same at every size
        assertThat(log.subList(0, 7)).containsExactly("configure ALL_REDUCE FLOAT SUM 0",
                "launch l0 out s0 r0 n1", "launch l0 out s0 r0 n1", "launch l0 out s0 r0 n1", "wait",
                "barrier", "launch l0 out s0 r0 n2");
        assertThat(log.indexOf("clock")).as("the warm launches are before the first clock read")
                .isGreaterThan(4);
        // the next datatype's sweep on the same loop goes straight to nccl-tests' warm-up
        log.clear();
        loop.run(o);
        assertThat(log.subList(0, 2)).containsExactly("configure ALL_REDUCE FLOAT SUM 0", "barrier");

        // -z 1 waits and barriers after every timed operation, but not after the warm launches
        log.clear();
        new TimedLoop(be, new RecordingGroup(log), clock).run(o.withBlocking(1));
        assertThat(log.subList(0, 6)).containsExactly("configure ALL_REDUCE FLOAT SUM 0",
                "launch l0 out s0 r0 n1", "launch l0 out s0 r0 n1", "launch l0 out s0 r0 n1", "wait", "barrier");
    }

    @Test
    void minusEAboveTheLargestListedSizeSizesTheRotationAndTheWarmUpAsNcclTestsArgsMaxbytes() {
        // -b 8 -e 40 -f 2 lists 8 and 16 bytes, but nccl-tests' args->maxbytes stays 40: the warm-up also runs
        // 32 bytes and the 16-byte size rotates over 40 / 16 = 2 offsets (with the largest listed size, 1).
        run(1, allReduce(List.of(8L, 16L)).withMaxBytes(40));
        assertThat(log).filteredOn(l -> l.startsWith("launch") && l.endsWith("n8")).isNotEmpty();
        assertThat(log).contains("launch l0 out s16 r16 n4").contains("launch l0 in s16 r16 n4");
        assertThatThrownBy(() -> allReduce(List.of(8L, 16L)).withMaxBytes(12))
                .hasMessageContaining("-e 12 is below the largest size listed, 16");
    }

    @Test
    void theFastestAndSlowestProcessAreReducedOnceAfterTheClockStoppedWhateverMinusAReports() throws Exception {
        // Two processes (threads) whose clocks tick 1 µs and 3 µs per read: per-operation times 1 µs and 3 µs.
        PairGroup.Link link = new PairGroup.Link();
        List<List<String>> logs = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<SizeResult>> results = new ArrayList<>(List.of(List.of(), List.of()));
        Thread[] threads = new Thread[2];
        for (int p = 0; p < 2; p++) {
            final int proc = p;
            final long tick = 1000L + 2000L * p;
            threads[p] = new Thread(() -> {
                List<String> own = logs.get(proc);
                long[] t = {0};
                LongSupplier c = () -> {
                    own.add("clock");
                    return t[0] += tick;
                };
                RecordingBackend be = new RecordingBackend(1, own);
                be.allocate(8, 8);
                own.clear();
                results.set(proc, new TimedLoop(be, new PairGroup(link, proc, own), c)
                        .run(allReduce(List.of(8L)).withAverage(LoopOptions.Average.RANK0)));
            });
            threads[p].start();
        }
        for (Thread t : threads) {
            t.join(600_000); // only a hang takes this long: no verdict races the clock
            assertThat(t.isAlive()).as("%s ended", t.getName()).isFalse();
        }
        for (int p = 0; p < 2; p++) {
            PlacementResult oop = results.get(p).get(0).outOfPlace();
            assertThat(oop.timeUs()).as("-a 0 reports process 0's time").isEqualTo(1.0);
            assertThat(oop.minRankTimeUs()).isEqualTo(1.0);
            assertThat(oop.maxRankTimeUs()).isEqualTo(3.0);
            assertThat(results.get(p).get(0).inPlace().maxRankTimeUs()).isEqualTo(3.0);
            List<String> log = logs.get(p);
            int lastClock = log.subList(0, log.indexOf("allreduce MAX 2")).lastIndexOf("clock");
            assertThat(log.subList(lastClock, log.indexOf("allreduce MAX 2") + 1)).as("after the last clock read")
                    .containsExactly("clock", "allreduce SUM 1", "allreduce SUM 1", "allreduce MAX 2");
            assertThat(log.stream().filter("allreduce MAX 2"::equals).count()).as("one per placement").isEqualTo(2);
        }
    }

    @Test
    void graphModeCapturesTheIterationsThenResetsTheClockAndReplaysGTimes() {
        List<SizeResult> r = run(1, allReduce(List.of(8L)).withGraph(3));
        int begin = log.indexOf("beginCapture");
        assertThat(log.subList(begin - 3, log.indexOf("destroyGraph") + 2)).containsExactly(
                "launch l0 out s0 r0 n2", "wait", "barrier",
                "beginCapture", "clock", "launch l0 out s0 r0 n2", "launch l0 out s0 r0 n2",
                "endCapture+instantiate", "barrier", "clock",
                "launchGraph", "launchGraph", "launchGraph", "clock", "wait", "clock",
                "allreduce SUM 1", "allreduce SUM 1", "allreduce MAX 2", "destroyGraph", "barrier");
        // 2 µs since the reset, over 2 iterations and 3 replays
        assertThat(r.get(0).outOfPlace().timeUs()).isEqualTo(2.0 / 2 / 3);
    }

    @Test
    void aggregatedIterationsAreGroupedAndSeveralLocalGpusAreGroupedPerOperation() {
        run(2, allReduce(List.of(64L)).withIters(0, 1, 2));
        int t0 = log.indexOf("clock");
        assertThat(log.subList(t0, t0 + 12)).containsExactly("clock",
                "groupStart",
                "groupStart", "launch l0 out s0 r0 n16", "launch l1 out s0 r0 n16", "groupEnd",
                "groupStart", "launch l0 out s0 r0 n16", "launch l1 out s0 r0 n16", "groupEnd",
                "groupEnd", "clock");
    }

    @Test
    void inPlaceAllGatherSendsFromItsOwnSliceOfTheReceiveBuffer() {
        LoopOptions o = LoopOptions.defaults(Collective.ALL_GATHER, DataType.FLOAT, ReduceOp.SUM, 0, List.of(64L))
                .withIters(0, 1, 1).withCheck(0);
        run(2, o);
        // 64 B over 2 ranks: 8 floats each; rank 1 sends from recvbuf + 1·32 B
        assertThat(log).contains("launch l0 in s0 r0 n8", "launch l1 in s32 r0 n8");
    }

    @Test
    void blockingOneInOneProcessMeetsOnlyItsOwnThreadsAsNcclTestsWithoutMpi() {
        // nccl-tests' Barrier without MPI is its thread barrier: no NCCL operation joins the timed loop
        run(2, allReduce(List.of(8L)).withBlocking(1));
        int t0 = log.indexOf("clock");
        assertThat(log.subList(t0, t0 + 13)).containsExactly("clock",
                "groupStart", "launch l0 out s0 r0 n2", "launch l1 out s0 r0 n2", "groupEnd", "wait", "barrier",
                "groupStart", "launch l0 out s0 r0 n2", "launch l1 out s0 r0 n2", "groupEnd", "wait", "barrier");
        assertThat(log).doesNotContain("deviceBarrier");
    }

    @Test
    void blockingOneAcrossProcessesBarriersThroughNcclAfterEveryOperation() {
        // where MPI_Barrier would run, the communicator spanning the job is the barrier (tens of µs less than TCP)
        LoopOptions o = allReduce(List.of(8L)).withBlocking(1);
        RecordingBackend be = new RecordingBackend(1, 2, log);
        be.allocate(TimedLoop.bufferBytes(o.maxBytes()), TimedLoop.bufferBytes(o.maxBytes()));
        log.clear();
        new TimedLoop(be, new RecordingGroup(log, 2), clock).run(o);
        int t0 = log.indexOf("clock");
        assertThat(log.subList(t0, t0 + 9)).containsExactly("clock",
                "launch l0 out s0 r0 n2", "wait", "deviceBarrier", "launch l0 out s0 r0 n2", "wait", "deviceBarrier",
                "clock", "clock");
    }

    @Test
    void underASplitTheBarrierInsideTheLoopStaysTheJobsOwn() {
        // two processes, one rank each, but communicators of one rank (NCCL_TESTS_SPLIT): NCCL cannot reach the job
        LoopOptions o = allReduce(List.of(8L)).withBlocking(1);
        RecordingBackend be = new RecordingBackend(1, log);
        be.allocate(TimedLoop.bufferBytes(o.maxBytes()), TimedLoop.bufferBytes(o.maxBytes()));
        log.clear();
        new TimedLoop(be, new RecordingGroup(log, 2), clock).run(o);
        int t0 = log.indexOf("clock");
        assertThat(log.subList(t0, t0 + 4)).containsExactly("clock", "launch l0 out s0 r0 n2", "wait", "barrier");
        assertThat(log).doesNotContain("deviceBarrier");
    }

    @Test
    void blockingThreeExcludesTheBarrierAfterEachIterationFromTheTimeAndFromTheCpuTime() {
        List<SizeResult> r = run(1, allReduce(List.of(8L)).withBlocking(3));
        int t0 = log.indexOf("clock");
        // nccl-tests: every op waits in startColl (any -z), -z 3 waits again and reads the clock before the barrier
        assertThat(log.subList(t0, t0 + 14)).containsExactly("clock",
                "clock", "launch l0 out s0 r0 n2", "wait", "wait", "clock", "barrier",
                "clock", "launch l0 out s0 r0 n2", "wait", "wait", "clock", "barrier",
                "allreduce SUM 1");
        // each iteration 1 µs between its own clock reads; the barriers are left out of both times (-C 1 too)
        assertThat(r.get(0).outOfPlace().timeUs()).isEqualTo(1.0);
        assertThat(r.get(0).outOfPlace().cpuTimeUs()).isEqualTo(1.0);
    }

    @Test
    void blockingWithSeveralOperationsPerIterationStillWaitsAtTheEndOfTheTimedLoop() {
        // -z 1 -m 2: the waits inside startColl run inside the group, before it is launched; nccl-tests'
        // completeColl skips its wait only when -m <= 1, so the last group is inside the time. Inside the open
        // group the barrier stays the job's own: an NCCL all-reduce there would only join the group.
        run(1, allReduce(List.of(8L)).withIters(0, 1, 2).withBlocking(1));
        int t0 = log.indexOf("clock");
        assertThat(log.subList(t0, t0 + 12)).containsExactly("clock", "groupStart",
                "launch l0 out s0 r0 n2", "wait", "barrier", "launch l0 out s0 r0 n2", "wait", "barrier",
                "groupEnd", "clock", "wait", "clock");
    }

    @Test
    void blockingThreeWithPerIterationTimingRecordsAStartStopPairPerIterationBeforeTheBarrier() {
        List<SizeResult> r = run(1, allReduce(List.of(8L)).withIters(0, 2, 1).withBlocking(3)
                .withPerIterTiming(true, 0));
        assertThat(log).contains("prepareEvents 4");
        int t0 = log.indexOf("clock");
        assertThat(log.subList(t0, t0 + 17)).containsExactly("clock",
                "clock", "event 0", "launch l0 out s0 r0 n2", "wait", "wait", "event 1", "clock", "barrier",
                "clock", "event 2", "launch l0 out s0 r0 n2", "wait", "wait", "event 3", "clock", "barrier");
        // samples are the pairs (0, 1) and (2, 3): the double gives slot + 1 µs, so 1 and 3
        assertThat(r.get(0).outOfPlace().perIteration().timesUs()).containsExactly(1, 3);
    }

    @Test
    void blockingWithPerIterationTimingWaitsForTheLastEventBeforeReadingIt() {
        run(1, allReduce(List.of(8L)).withIters(0, 2, 1).withBlocking(2).withPerIterTiming(true, 0));
        int stop = log.indexOf("event 2");
        // after the last event: the clock (CPU time), completeColl's skipped wait, the clock, then the sync
        assertThat(log.subList(stop, stop + 4)).containsExactly("event 2", "clock", "clock", "wait");
    }

    @Test
    void perIterationTimingRecordsAnEventPerIterationAndSummarises() {
        List<SizeResult> r = run(1, allReduce(List.of(8L)).withIters(0, 4, 1).withPerIterTiming(true, 1));
        assertThat(log.get(1)).isEqualTo("prepareEvents 5");
        int t0 = log.indexOf("clock");
        assertThat(log.subList(t0, t0 + 10)).containsExactly("clock",
                "event 0", "launch l0 out s0 r0 n2", "event 1", "launch l0 out s0 r0 n2",
                "event 2", "launch l0 out s0 r0 n2", "event 3", "launch l0 out s0 r0 n2", "event 4");
        assertThat(log).contains("allreduce MAX 4");
        IterationStats s = r.get(0).outOfPlace().perIteration();
        assertThat(s.timesUs()).containsExactly(1, 2, 3, 4);
        assertThat(s.skipped()).isEqualTo(1);
        assertThat(s.minUs()).isEqualTo(2);
        assertThat(s.maxUs()).isEqualTo(4);
        assertThat(s.p50Us()).isEqualTo(3);
    }

    @Test
    void perIterationTimingAndBlockingThreeAreOffWithGraphs() {
        run(1, allReduce(List.of(8L)).withGraph(1).withPerIterTiming(true, 0).withBlocking(3));
        assertThat(log).noneMatch(s -> s.startsWith("event") || s.startsWith("prepareEvents"));
        assertThat(log.stream().filter("barrier"::equals).count()).isEqualTo(1 + 2 * 3);
    }

    @Test
    void runCyclesWarmUpOnceThenRepeatTheSizes() {
        RecordingBackend be = new RecordingBackend(1, log);
        be.allocate(16, 16);
        List<SizeResult> r = new TimedLoop(be, new RecordingGroup(log), clock).run(allReduce(List.of(8L, 16L)), 3);
        assertThat(r).extracting(x -> x.measurement().sizeBytes()).containsExactly(8L, 16L, 8L, 16L, 8L, 16L);
        assertThat(log.stream().filter("wait"::equals).count()).isEqualTo(2 + 3 * 2 * 2 * 2);
        assertThat(r.get(0).withCpuTime().outOfPlace().timeUs()).isEqualTo(0.5);
        assertThat(r.get(0).withCpuTime().outOfPlace().busBwGBps()).isEqualTo(r.get(0).measurement().outOfPlace().busBwGBps());
    }

    @Test
    void aRootOutsideTheCommunicatorIsRefusedBeforeAnyCall() {
        RecordingBackend be = new RecordingBackend(2, log);
        be.allocate(64, 64);
        LoopOptions o = LoopOptions.defaults(Collective.BROADCAST, DataType.FLOAT, ReduceOp.SUM, 2, List.of(64L));
        assertThatThrownBy(() -> new TimedLoop(be, new RecordingGroup(log), clock).run(o))
                .hasMessage("-r 2: the root must be a rank, 0..1");
        assertThat(log).containsExactly("allocate 64 64");
    }

    @Test
    void aFailureAbortsTheCommunicatorsBeforeItPropagates() {
        RecordingBackend be = new RecordingBackend(1, log);
        be.allocate(8, 8);
        be.failWait = true;
        assertThatThrownBy(() -> new TimedLoop(be, new RecordingGroup(log), clock).run(allReduce(List.of(8L))))
                .isInstanceOf(GpuJobException.class);
        assertThat(be.aborted).isTrue();
        assertThat(log.get(log.size() - 1)).isEqualTo("abort");
    }

    @ParameterizedTest
    // the rooted, hypercube and alltoallv programs' checks run end to end through the stand-ins
    // (NcclTestsParityIT, AlltoallvStandInIT): this test double runs the symmetric collectives only
    @EnumSource(value = Collective.class, names = {"GATHER", "SCATTER", "HYPERCUBE", "ALL_TO_ALL_V", "UNKNOWN"},
            mode = EnumSource.Mode.EXCLUDE)
    void theDataCheckFindsEveryCollectiveCorrectAndCountsACorruptedElement(Collective c) {
        for (int ranks : new int[] {1, 3, 4}) {
            for (DataType t : new DataType[] {DataType.FLOAT, DataType.HALF, DataType.BFLOAT16, DataType.INT8,
                    DataType.UINT64, DataType.F8E4M3}) {
                for (ReduceOp op : c.reduces() ? ReduceOp.values() : new ReduceOp[] {ReduceOp.SUM}) {
                    LoopOptions o = LoopOptions.defaults(c, t, op, ranks - 1, List.of(96L, 192L)).withIters(0, 1, 1);
                    log.clear();
                    RecordingBackend be = new RecordingBackend(ranks, log);
                    be.allocate(192, 192);
                    List<SizeResult> r = new TimedLoop(be, new RecordingGroup(log), clock).run(o);
                    String what = c + " " + t + " " + op + " ranks=" + ranks;
                    for (SizeResult s : r) {
                        assertThat(s.outOfPlace().wrong()).as(what).isZero();
                        boolean inPlaceChecked = c != Collective.ALL_TO_ALL && c != Collective.SEND_RECV;
                        assertThat(s.inPlace().wrong()).as(what).isEqualTo(inPlaceChecked ? 0L : null);
                    }
                }
            }
        }
        // One flipped bit in rank 0's downloaded result is exactly one wrong element.
        RecordingBackend corrupting = new RecordingBackend(2, log) {
            private int downloads;

            @Override
            public void download(int local, long offset, java.nio.ByteBuffer dst) {
                super.download(local, offset, dst);
                if (local == 0 && downloads++ == 0) {
                    dst.put(dst.position(), (byte) (dst.get(dst.position()) ^ 1));
                }
            }
        };
        corrupting.allocate(64, 64);
        LoopOptions o = LoopOptions.defaults(c, DataType.INT32, ReduceOp.SUM, 0, List.of(64L)).withIters(0, 1, 1);
        List<SizeResult> r = new TimedLoop(corrupting, new RecordingGroup(log), clock).run(o);
        assertThat(r.get(0).outOfPlace().wrong()).isEqualTo(1L);
    }
}
