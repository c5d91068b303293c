package org.ncclharness.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SizeList;

/**
 * The one timed loop, for every collective, in nccl-tests' order (src/common.cu's TimeTest,
 * BenchTime, startColl and completeColl):
 *
 * <ol>
 *   <li>barrier; warm-up: for sizes doubling from the minimum, {@code -w} out-of-place operations, then wait;</li>
 *   <li>per size, out-of-place then in-place: (with -c) initialise the buffers; one untimed operation and
 *       wait; barrier; (-G) begin capture; read the steady clock; {@code -n} iterations of {@code -m}
 *       operations (grouped when {@code -m > 1}); (-G) end capture, instantiate, barrier, read the clock
 *       again, launch the graph {@code -G} times; CPU time; wait for the streams; read the clock;
 *       time per operation = elapsed / (n·m) [/ G]; combine across processes per {@code -a}, and reduce
 *       the fastest and slowest process's time (the harness's addition, after the clock stopped);</li>
 *   <li>barrier; {@code -c} check repetitions, each: initialise, one operation, wait, count #wrong, sum
 *       across processes, stop at the first failure.</li>
 * </ol>
 *
 * Every operation uses a different buffer offset, {@code stride · (iter mod (maxBytes / stride))}, to defeat
 * caches. Between the two clock reads the loop only calls the backend with primitives: no allocation, no
 * logging, no formatting. Any failure aborts the communicators before it propagates, so no peer hangs.
 */
public final class TimedLoop {
    /** nccl-tests initialises the buffers of timed runs with seed 99 and its checks with the repetition. */
    private static final long TIMING_SEED = 99;

    private final CollectiveBackend be;
    private final JobGroup group;
    private final LongSupplier clockNanos;
    private int checkRepetition;
    /** The launch path is warmed once per loop (per process sweep), not per datatype or op. */
    /** True while the timed loop has a group open (-m > 1): launches there only join the group. */
    private boolean grouped;
    private boolean launchPathWarm;
    /** Per-run constants the timed path reads (computed once: the option accessors may allocate). */
    private long maxBytes;
    private int blocking;
    private int aggIters;
    private long timeoutNanos;
    /** {max, −min} of the per-process times: one reduction gives both (one array for every placement). */
    private final double[] spread = new double[2];

    /**
     * The clock this JVM's timed loops read where it is not the GPU job's steady clock: the test stand-ins' virtual
     * clock ({@code the clock in FILE (-Dnccl-harness.loop-clock-file)}); empty for a real run. Times taken on it are
     * a stand-in's arithmetic: whatever carries them must say they were not measured.
     */
    public static Optional<String> testClock() {
        return LoopClock.testClock();
    }

    public TimedLoop(CollectiveBackend backend, JobGroup group) {
        this(backend, group, LoopClock.fromSystem());
    }

    /** @param clockNanos a steady clock in nanoseconds (tests pass one that records where it is read) */
    TimedLoop(CollectiveBackend backend, JobGroup group, LongSupplier clockNanos) {
        this.be = backend;
        this.group = group;
        this.clockNanos = clockNanos;
    }

    /**
     * Runs one sweep (one cycle). The backend's buffers must hold {@code options.maxBytes()} (see
     * {@link #bufferBytes}).
     *
     * @return one result per size, in the order of {@code options.sizes()}
     * @throws GpuJobException           on a CUDA/NCCL failure or timeout (communicators aborted)
     * @throws IllegalArgumentException if the root is not a rank, or the data check cannot be exact for
     *                                  this type, op and rank count
     */
    public List<SizeResult> run(LoopOptions o) {
        return run(o, 1);
    }

    /**
     * nccl-tests {@code -N}: one warm-up, then the whole size list {@code cycles} times.
     *
     * @return {@code cycles × sizes} results, cycle by cycle, in size order within a cycle
     */
    public List<SizeResult> run(LoopOptions o, int cycles) {
        if (cycles < 1) {
            throw new IllegalArgumentException("-N " + cycles + ": the harness runs a bounded number of cycles, at least 1");
        }
        if (o.collective().rooted() && (o.root() < 0 || o.root() >= be.nranks())) {
            throw new IllegalArgumentException("-r " + o.root() + ": the root must be a rank, 0.." + (be.nranks() - 1));
        }
        DataCheck check = o.checkIters() > 0
                ? new DataCheck(o.collective(), o.type(), o.op(), o.root(), be.nranks(), o.maxBytes(),
                        o.traffic()) : null;
        be.configure(o.collective(), o.type(), o.op(), o.root(), o.traffic());
        maxBytes = o.maxBytes();
        blocking = o.effectiveBlocking();
        aggIters = o.aggIters();
        timeoutNanos = o.timeoutNanos();
        if (o.effectivePerIterTiming()) {
            // -z 3 records a start/stop pair per iteration (nccl-tests 2.19.5+), otherwise shared boundaries
            be.prepareEvents(blocking == 3 ? 2 * o.iters() : o.iters() + 1);
        }
        try {
            warmLaunchPath(o);
            warmUp(o);
            List<SizeResult> out = new ArrayList<>(o.sizes().size() * cycles);
            for (int cycle = 0; cycle < cycles; cycle++) {
                for (long size : o.sizes()) {
                    SizeSetup s = SizeSetup.of(o.collective(), o.type(), size, be.nranks(), o.traffic());
                    PlacementResult oop = bench(o, s, false, check);
                    PlacementResult ip = bench(o, s, true, check);
                    out.add(new SizeResult(measurement(o, s, oop, ip), oop, ip));
                }
            }
            return out;
        } catch (RuntimeException | Error e) {
            be.abort();
            throw e;
        }
    }

    /** Bytes each local send and receive buffer needs for a sweep up to {@code maxBytes}. */
    public static long bufferBytes(long maxBytes) {
        return Math.max(1, maxBytes);
    }

    /**
     * The harness's addition: untimed launches of one element per rank, waited on every thousand (see
     * LoopOptions). The launch path is the same code at every size, so the smallest operation warms it: at the
     * sweep's own smallest size a {@code -b 1G} sweep would spend minutes moving 10,000 GiB before it measured
     * anything. They skip -z's per-operation waits and barriers: under -z 1 those would be 10,000 barriers over TCP.
     */
    private void warmLaunchPath(LoopOptions o) {
        if (launchPathWarm || o.launchWarmUp() == 0) {
            return;
        }
        launchPathWarm = true;
        long oneEach = Math.min(o.minBytes(), (long) o.type().bytes() * be.nranks());
        SizeSetup s = SizeSetup.of(o.collective(), o.type(), oneEach, be.nranks(), o.traffic());
        for (int i = 1; i <= o.launchWarmUp(); i++) {
            enqueue(s, false, 0);
            if (i % 1000 == 0 || i == o.launchWarmUp()) {
                be.waitAll(timeoutNanos);
            }
        }
    }

    private void warmUp(LoopOptions o) {
        group.barrier();
        for (long size : SizeList.warmupSizes(o.minBytes(), o.maxBytes())) {
            SizeSetup s = SizeSetup.of(o.collective(), o.type(), size, be.nranks(), o.traffic());
            for (int iter = 0; iter < o.warmupIters(); iter++) {
                startColl(s, false, iter);
            }
            completeColl();
        }
    }

    private PlacementResult bench(LoopOptions o, SizeSetup s, boolean inPlace, DataCheck check) {
        if (check != null) {
            check.seed(TIMING_SEED);
            for (int l = 0; l < be.localRanks(); l++) {
                check.initialise(be, l, s, inPlace);
            }
        }
        startColl(s, inPlace, 0);
        completeColl();
        group.barrier();

        final boolean graph = o.graphLaunches() > 0;
        final boolean perIter = o.effectivePerIterTiming();
        final int iters = o.iters();
        final int agg = o.aggIters();
        if (graph) {
            be.beginCapture();
        }
        // -z 3 with -I: each iteration's stop event is recorded after its sync, before the barrier
        final boolean paired = perIter && blocking == 3;
        // ---- timed region: primitives and backend calls only ----
        long collOnly = 0;
        long t0 = clockNanos.getAsLong();
        for (int iter = 0; iter < iters; iter++) {
            long iterStart = blocking == 3 ? clockNanos.getAsLong() : 0;
            if (perIter) {
                be.recordEvent(paired ? 2 * iter : iter);
            }
            if (agg > 1) {
                be.groupStart();
                grouped = true;
            }
            for (int a = 0; a < agg; a++) {
                startColl(s, inPlace, iter * agg + a);
            }
            if (agg > 1) {
                be.groupEnd();
                grouped = false;
            }
            if (blocking == 3) {
                be.waitAll(timeoutNanos);
                if (paired) {
                    be.recordEvent(2 * iter + 1);
                }
                collOnly += clockNanos.getAsLong() - iterStart;
                loopBarrier();
            }
        }
        if (perIter && !paired) {
            be.recordEvent(iters);
        }
        if (graph) {
            be.endCaptureAndInstantiate();
            group.barrier();
            t0 = clockNanos.getAsLong();
            for (int l = 0; l < o.graphLaunches(); l++) {
                be.launchGraph();
            }
        }
        // -z 3 counts the collectives only, for the CPU time (-C 1) as for the time (nccl-tests' collOnlySec)
        long cpuNanos = blocking == 3 ? collOnly : clockNanos.getAsLong() - t0;
        completeColl();
        long deltaNanos = blocking == 3 ? collOnly : clockNanos.getAsLong() - t0;
        // ---- end of timed region ----
        if (perIter && blocking != 0 && aggIters <= 1) {
            be.waitAll(timeoutNanos); // completeColl skipped its wait: the last event may still be pending
        }

        double ops = (double) iters * agg;
        double localSec = deltaNanos / 1e9 / ops / (graph ? o.graphLaunches() : 1);
        double cpuSec = cpuNanos / 1e9 / ops;
        double timeSec = combine(localSec, o.average());
        cpuSec = combine(cpuSec, LoopOptions.Average.RANK0); // nccl-tests prints rank 0's own CPU time
        // The slowest and fastest process whatever -a reports: MAX of {t, −t} is {max, −min}.
        spread[0] = localSec;
        spread[1] = -localSec;
        group.allreduce(spread, JobGroup.Reduction.MAX);
        IterationStats stats = perIter ? iterationStats(o, agg) : null;
        if (graph) {
            be.destroyGraph();
        }
        double algBw = s.counts().printedBytes() / 1e9 / timeSec;
        double busBw = algBw * o.collective().busFactor(be.nranks());
        group.barrier();

        Long wrong = check != null && check.checks(inPlace) ? countWrong(o, s, inPlace, check, graph) : null;
        return new PlacementResult(timeSec * 1e6, cpuSec * 1e6, algBw, busBw, wrong, stats, -spread[1] * 1e6,
                spread[0] * 1e6);
    }

    private long countWrong(LoopOptions o, SizeSetup s, boolean inPlace, DataCheck check, boolean graph) {
        checkRepetition++;
        long wrong = 0;
        for (int c = 0; c < o.checkIters(); c++) {
            check.seed(checkRepetition);
            for (int l = 0; l < be.localRanks(); l++) {
                check.initialise(be, l, s, inPlace);
            }
            if (graph) {
                be.beginCapture();
            }
            startColl(s, inPlace, 0);
            if (graph) {
                be.endCaptureAndInstantiate();
                be.launchGraph();
            }
            completeColl();
            if (graph) {
                be.destroyGraph();
            }
            long local = 0;
            for (int l = 0; l < be.localRanks(); l++) {
                local += check.countWrong(be, l, s, inPlace);
            }
            double[] sum = {local};
            group.allreduce(sum, JobGroup.Reduction.SUM);
            wrong = (long) sum[0];
            if (wrong != 0) {
                break;
            }
        }
        return wrong;
    }

    private IterationStats iterationStats(LoopOptions o, int agg) {
        double[] us = new double[o.iters()];
        for (int i = 0; i < us.length; i++) {
            us[i] = be.elapsedMillisMaxOverLocal(blocking == 3 ? 2 * i : i) * 1000.0 / agg;
        }
        group.allreduce(us, JobGroup.Reduction.MAX);
        return IterationStats.of(us, o.perIterSkip());
    }

    private double combine(double local, LoopOptions.Average how) {
        double[] v = {local};
        switch (how) {
            case MEAN -> {
                group.allreduce(v, JobGroup.Reduction.SUM);
                v[0] /= group.processCount();
            }
            case MIN -> group.allreduce(v, JobGroup.Reduction.MIN);
            case MAX -> group.allreduce(v, JobGroup.Reduction.MAX);
            case RANK0 -> {
                v[0] = group.processIndex() == 0 ? local : 0.0;
                group.allreduce(v, JobGroup.Reduction.SUM);
            }
        }
        return v[0];
    }

    /** nccl-tests' startColl: one operation on every local rank, grouped when this process drives several. */
    private void startColl(SizeSetup s, boolean inPlace, int iter) {
        enqueue(s, inPlace, iter);
        if (blocking != 0) {
            be.waitAll(timeoutNanos);
        }
        if (blocking == 1) {
            loopBarrier();
        }
    }

    /**
     * The barrier inside the timed loop (-z 1 after each operation, -z 3 after each iteration), as nccl-tests'
     * Barrier: its threads meet, then (under MPI only) MPI_Barrier. One process is nccl-tests without MPI: the
     * group's barrier, which for one process waits for nobody, so no NCCL work enters the timed loop. Across
     * processes it goes through NCCL itself ({@link CollectiveBackend#deviceBarrier}) where the communicators
     * span the job: nccl-tests pays an MPI barrier there (a few µs on one host), which the control plane's TCP
     * barrier is not (tens of µs, `bench barrier`). Under NCCL_TESTS_SPLIT a communicator is one colour, not the
     * job, so the barrier stays the job's own, as nccl-tests' MPI_Barrier on MPI_COMM_WORLD; so it does inside an
     * open group (-m > 1), where a collective would only join the group.
     */
    private void loopBarrier() {
        if (group.processCount() > 1 && !grouped && be.nranks() == group.processCount() * be.localRanks()) {
            be.deviceBarrier(timeoutNanos);
        } else {
            group.barrier();
        }
    }

    /** The launches of one operation, without -z's waits and barriers (which the launch warm-up must not pay). */
    private void enqueue(SizeSetup s, boolean inPlace, int iter) {
        long stride = s.strideBytes();
        long steps = stride == 0 ? 1 : Math.max(1, maxBytes / stride);
        long shift = stride * (iter % steps);
        long count = s.counts().paramCount();
        int locals = be.localRanks();
        if (locals > 1) {
            be.groupStart();
        }
        for (int l = 0; l < locals; l++) {
            if (inPlace) {
                int rank = be.rank(l);
                be.launch(l, true, shift + s.sendInPlaceOffset(rank), shift + s.recvInPlaceOffset(rank), count);
            } else {
                be.launch(l, false, shift, shift, count);
            }
        }
        if (locals > 1) {
            be.groupEnd();
        }
    }

    /**
     * nccl-tests' completeColl: wait for the streams, unless every operation already waited (any -z) and there
     * was one per iteration; with {@code -m} above 1 the operations ran inside a group, and the wait inside
     * startColl returned before the group was launched.
     */
    private void completeColl() {
        if (blocking != 0 && aggIters <= 1) {
            return;
        }
        be.waitAll(timeoutNanos);
    }

    private Measurement measurement(LoopOptions o, SizeSetup s, PlacementResult oop, PlacementResult ip) {
        return new Measurement(s.counts().printedBytes(), s.counts().paramCount(), o.type().testName(),
                o.collective().reduces() ? o.op().testName() : "none",
                o.collective().rooted() ? o.root() : -1, half(oop), half(ip));
    }

    private static Half half(PlacementResult p) {
        return new Half(p.timeUs(), p.algBwGBps(), p.busBwGBps(), p.wrong() == null ? null : p.wrong().doubleValue());
    }
}
