package org.ncclharness.harness.launch;

import java.util.concurrent.TimeUnit;

/**
 * Tells, from a thread's stack, that a rank waits for the others inside {@link JobGroup#barrier()}: past the point
 * where its control plane names the phase "barrier #N". Tests that kill a rank "during barrier #1" wait for this
 * instead of sleeping and hoping the others got there (issue 43: no verdict races the clock).
 */
final class InBarrier {

    /** Only a hang takes this long: the wait ends as soon as the rank is in the barrier. */
    static final long GENEROUS_S = 300;

    private InBarrier() {
    }

    /** Whether {@code t} is blocked in the control plane's wait for a message, called from a barrier. */
    static boolean waiting(Thread t) {
        boolean awaiting = false;
        boolean inBarrier = false;
        for (StackTraceElement e : t.getStackTrace()) {
            awaiting |= e.getClassName().equals(TcpGroup.class.getName()) && e.getMethodName().equals("await");
            inBarrier |= e.getMethodName().equals("barrier") && e.getClassName().endsWith("Group");
        }
        return awaiting && inBarrier;
    }

    /** Returns once {@code t} is {@link #waiting}; fails the test if it does not get there within a hang's time. */
    static void await(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GENEROUS_S);
        while (!waiting(t)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(t.getName() + " did not reach the barrier in " + GENEROUS_S + " s");
            }
            Thread.sleep(5);
        }
    }
}
