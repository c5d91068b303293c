package org.ncclharness.gpu;

import java.util.List;
import java.util.Objects;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.PeerTraffic;
import org.ncclharness.calibration.measure.SizeList;

/**
 * The nccl-tests flags the timed loop obeys, for one (collective, type, op, root) sweep. Sizes are already
 * expanded ({@link SizeList}) and capped ({@link MemoryCap}); {@code -N} run cycles, {@code -d all},
 * {@code -o all} and {@code -r -1} are loops around this one.
 *
 * @param warmupIters  {@code -w}
 * @param iters        {@code -n}
 * @param aggIters     {@code -m}: operations per iteration, grouped when more than one
 * @param checkIters   {@code -c}: data-check repetitions (0 = #wrong is N/A)
 * @param blocking     {@code -z}: 0 none; 1 sync + barrier after every op; 2 sync after every op; 3 sync +
 *                     barrier after every iteration, barrier time excluded (disabled with -G)
 * @param graphLaunches {@code -G}: capture the timed iterations in a CUDA graph and replay it this many times
 * @param perIterTiming {@code -I}: CUDA events around every iteration (disabled with -G)
 * @param perIterSkip  {@code -K}: samples dropped from the -I summary
 * @param average      {@code -a}: how per-process times combine
 * @param timeoutNanos {@code -T} in nanoseconds, 0 = none
 * @param maxBytes     {@code -e} after the memory cap, nccl-tests' {@code args->maxbytes}: the buffers' size, the end
 *                     of the warm-up sizes and the span of the per-iteration offset rotation. It can lie above the
 *                     largest listed size ({@code -b 1M -e 3M} lists 1M and 2M); 0 means the largest listed size
 * @param launchWarmUp untimed launches of one element per rank before nccl-tests' own warm-up, once per timed loop: the
 *                     JIT compiles the launch path (a JNI call costs 0.5-0.9 us interpreted, tens of ns compiled)
 *                     before the first timed size instead of during it; nccl-tests, in C, needs none (0)
 * @param traffic      alltoallv's per-peer pattern (NCCL_TESTS_ALLTOALLV_*); the other collectives ignore it
 */
public record LoopOptions(Collective collective, DataType type, ReduceOp op, int root, List<Long> sizes,
                          int warmupIters, int iters, int aggIters, int checkIters, int blocking,
                          int graphLaunches, boolean perIterTiming, int perIterSkip, Average average,
                          long timeoutNanos, long maxBytes, int launchWarmUp, PeerTraffic traffic) {

    /** nccl-tests {@code -a}: 0 rank 0's value, 1 mean (default), 2 min, 3 max. */
    public enum Average { RANK0, MEAN, MIN, MAX;
        public static Average ofFlag(int a) {
            if (a < 0 || a > 3) {
                throw new IllegalArgumentException("-a " + a + ": expected 0 (rank 0), 1 (mean), 2 (min) or 3 (max)");
            }
            return values()[a];
        }
    }

    public LoopOptions {
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(average, "average");
        Objects.requireNonNull(traffic, "traffic");
        sizes = List.copyOf(sizes);
        if (sizes.isEmpty()) {
            throw new IllegalArgumentException("no sizes to run");
        }
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
        if (maxBytes == 0) {
            maxBytes = largest;
        } else if (maxBytes < largest) {
            throw new IllegalArgumentException("-e " + maxBytes + " is below the largest size listed, " + largest);
        }
        if (iters < 1 || aggIters < 1 || warmupIters < 0 || checkIters < 0 || graphLaunches < 0 || launchWarmUp < 0) {
            throw new IllegalArgumentException("-n and -m must be at least 1; -w, -c and -G at least 0");
        }
        if (blocking < 0 || blocking > 3) {
            throw new IllegalArgumentException("-z " + blocking + ": expected 0, 1, 2 or 3");
        }
        if ((blocking == 1 || blocking == 2) && graphLaunches > 0) {
            // a stream cannot be queried or synchronised while it is being captured
            throw new IllegalArgumentException("-z " + blocking + " waits after every operation, which CUDA-graph "
                    + "capture (-G) does not allow: use -z 0 or -G 0");
        }
        if (perIterSkip < 0 || perIterSkip >= iters) {
            throw new IllegalArgumentException("-K " + perIterSkip + ": expected 0 <= K < iters (" + iters + ")");
        }
        if (perIterSkip > 0 && !perIterTiming) {
            throw new IllegalArgumentException("-K needs -I 1");
        }
    }

    /** Everything but alltoallv's pattern, which is nccl-tests' default (spread 1.0). */
    public LoopOptions(Collective collective, DataType type, ReduceOp op, int root, List<Long> sizes,
                       int warmupIters, int iters, int aggIters, int checkIters, int blocking,
                       int graphLaunches, boolean perIterTiming, int perIterSkip, Average average,
                       long timeoutNanos, long maxBytes, int launchWarmUp) {
        this(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking, graphLaunches,
                perIterTiming, perIterSkip, average, timeoutNanos, maxBytes, launchWarmUp,
                PeerTraffic.NCCL_TESTS_DEFAULT);
    }

    /**
     * Refuses, in one line, what the loaded NCCL cannot run: a datatype or operator newer than it. Checked
     * before any launch, because calling into a missing feature fails late or, for symbols, kills the JVM.
     */
    public void requireSupportedBy(NcclVersion loaded) {
        type.needs().ifPresent(f -> f.require(loaded));
        if (collective.reduces()) {
            op.needs().ifPresent(f -> f.require(loaded));
        }
        NcclFeature.BASELINE.require(loaded);
    }

    /** nccl-tests' defaults for everything but the sweep itself: -w 1 -n 20 -m 1 -c 1 -z 0 -G 0 -a 1. */
    public static LoopOptions defaults(Collective collective, DataType type, ReduceOp op, int root, List<Long> sizes) {
        return new LoopOptions(collective, type, op, root, sizes, 1, 20, 1, 1, 0, 0, false, 0, Average.MEAN, 0, 0, 0);
    }

    public long minBytes() {
        return sizes.get(0);
    }

    /** -z 3 is incompatible with -G, and nccl-tests then disables it. */
    public int effectiveBlocking() {
        return blocking == 3 && graphLaunches > 0 ? 0 : blocking;
    }

    /** -I is disabled with -G, as in nccl-tests. */
    public boolean effectivePerIterTiming() {
        return perIterTiming && graphLaunches == 0;
    }

    public LoopOptions withIters(int warmup, int n, int agg) {
        return new LoopOptions(collective, type, op, root, sizes, warmup, n, agg, checkIters, blocking,
                graphLaunches, perIterTiming, perIterSkip, average, timeoutNanos, maxBytes, launchWarmUp, traffic);
    }

    public LoopOptions withCheck(int c) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, c, blocking,
                graphLaunches, perIterTiming, perIterSkip, average, timeoutNanos, maxBytes, launchWarmUp, traffic);
    }

    public LoopOptions withGraph(int g) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking,
                g, perIterTiming, perIterSkip, average, timeoutNanos, maxBytes, launchWarmUp, traffic);
    }

    public LoopOptions withBlocking(int z) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, z,
                graphLaunches, perIterTiming, perIterSkip, average, timeoutNanos, maxBytes, launchWarmUp, traffic);
    }

    public LoopOptions withPerIterTiming(boolean on, int skip) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking,
                graphLaunches, on, skip, average, timeoutNanos, maxBytes, launchWarmUp, traffic);
    }

    public LoopOptions withAverage(Average a) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking,
                graphLaunches, perIterTiming, perIterSkip, a, timeoutNanos, maxBytes, launchWarmUp, traffic);
    }

    /** nccl-tests' {@code -e} (after the memory cap), when it lies above the largest listed size. */
    public LoopOptions withMaxBytes(long e) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking,
                graphLaunches, perIterTiming, perIterSkip, average, timeoutNanos, e, launchWarmUp, traffic);
    }

    public LoopOptions withLaunchWarmUp(int launches) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking,
                graphLaunches, perIterTiming, perIterSkip, average, timeoutNanos, maxBytes, launches, traffic);
    }

    public LoopOptions withTraffic(PeerTraffic t) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking,
                graphLaunches, perIterTiming, perIterSkip, average, timeoutNanos, maxBytes, launchWarmUp, t);
    }

    public LoopOptions withTimeoutNanos(long t) {
        return new LoopOptions(collective, type, op, root, sizes, warmupIters, iters, aggIters, checkIters, blocking,
                graphLaunches, perIterTiming, perIterSkip, average, t, maxBytes, launchWarmUp, traffic);
    }
}
