package org.ncclharness.gpu;

import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One of two processes of a job, played by two threads of one JVM: barriers wait for the other thread and
 * reductions combine both threads' arrays, so a test can give the two "processes" different times. Each call is
 * written into this process's log as {@link RecordingGroup} writes it.
 */
final class PairGroup implements JobGroup {
    /** What both processes share: the rendezvous and one slot per process for its contribution. */
    static final class Link {
        private final CyclicBarrier meet = new CyclicBarrier(2);
        private final double[][] slots = new double[2][];

        private void await() {
            try {
                meet.await(600, TimeUnit.SECONDS); // only a hang takes this long: no verdict races the clock
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("the other process of the pair did not arrive", e);
            }
        }
    }

    private final Link link;
    private final int index;
    private final List<String> log;

    PairGroup(Link link, int index, List<String> log) {
        this.link = link;
        this.index = index;
        this.log = log;
    }

    @Override public int processIndex() { return index; }
    @Override public int processCount() { return 2; }

    @Override
    public void barrier() {
        log.add("barrier");
        link.await();
    }

    @Override
    public void allreduce(double[] values, Reduction op) {
        log.add("allreduce " + op + " " + values.length);
        link.slots[index] = values.clone();
        link.await();
        double[] other = link.slots[1 - index];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (op) {
                case SUM -> values[i] + other[i];
                case MIN -> Math.min(values[i], other[i]);
                case MAX -> Math.max(values[i], other[i]);
            };
        }
        // nobody may overwrite a slot before both have read it
        link.await();
    }
}
