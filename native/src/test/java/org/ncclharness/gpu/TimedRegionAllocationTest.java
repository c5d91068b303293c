package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;

/**
 * Between the clock reads that bound a timed placement, the loop allocates nothing: measured with the JVM's
 * per-thread allocation counter around 1,000 iterations against a backend that does nothing.
 */
class TimedRegionAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void theTimedRegionAllocatesNothing() {
        long tid = Thread.currentThread().getId();
        long[] at = new long[8192];
        int[] reads = {0};
        LongSupplier clock = () -> {
            if (reads[0] < at.length) {
                at[reads[0]] = THREADS.getThreadAllocatedBytes(tid);
            }
            reads[0]++;
            return System.nanoTime();
        };
        for (LoopOptions o : List.of(
                LoopOptions.defaults(Collective.ALL_REDUCE, DataType.FLOAT, ReduceOp.SUM, 0, List.of(1024L))
                        .withIters(0, 1000, 1).withCheck(0),
                LoopOptions.defaults(Collective.ALL_GATHER, DataType.HALF, ReduceOp.SUM, 0, List.of(1024L))
                        .withIters(0, 1000, 4).withCheck(0).withPerIterTiming(true, 0),
                LoopOptions.defaults(Collective.REDUCE_SCATTER, DataType.FLOAT, ReduceOp.SUM, 0, List.of(1024L))
                        .withIters(0, 1000, 1).withCheck(0).withBlocking(3))) {
            // The least over several rounds: an allocation per operation shows in every round (1,000 ops), while
            // the JVM's own one-off work (class loading, a deoptimisation under load) may touch one round.
            long least = Long.MAX_VALUE;
            for (int round = 0; round < 5; round++) {
                reads[0] = 0;
                new TimedLoop(new SilentBackend(4), JobGroup.single(), clock).run(o);
                int perPlacement = reads[0] / 2;
                // out-of-place: its first and last reads bound the timed region
                least = Math.min(least, at[perPlacement - 1] - at[0]);
            }
            assertThat(least).as(o.collective() + " bytes allocated in the timed region").isZero();
        }
    }

    /** A backend whose every call does nothing (and allocates nothing). */
    private static final class SilentBackend implements CollectiveBackend {
        private final int locals;

        SilentBackend(int locals) {
            this.locals = locals;
        }

        @Override
        public void deviceBarrier(long timeoutNanos) {
        }

        @Override public int localRanks() { return locals; }
        @Override public int rank(int local) { return local; }
        @Override public int nranks() { return locals; }
        @Override public void allocate(long sendBytes, long recvBytes) { }
        @Override public void configure(Collective c, DataType t, ReduceOp o, int r) { }
        @Override public void groupStart() { }
        @Override public void groupEnd() { }
        @Override public void launch(int l, boolean in, long so, long ro, long n) { }
        @Override public void waitAll(long timeoutNanos) { }
        @Override public void beginCapture() { }
        @Override public void endCaptureAndInstantiate() { }
        @Override public void launchGraph() { }
        @Override public void destroyGraph() { }
        @Override public void prepareEvents(int slots) { }
        @Override public void recordEvent(int slot) { }
        @Override public double elapsedMillisMaxOverLocal(int slot) { return 0.001; }
        @Override public void zero(int l, boolean recv, long bytes) { }
        @Override public void upload(int l, boolean recv, long off, ByteBuffer src) { }
        @Override public void download(int l, long off, ByteBuffer dst) { }
        @Override public void abort() { }
        @Override public void close() { }
    }

}
