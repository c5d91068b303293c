package org.ncclharness.calibration.model;

import org.ncclharness.calibration.measure.Collective;

/**
 * Sequential steps of the ring algorithm per collective (NCCL's nsteps in src/graph/tuning.cc; ASTRA-sim's
 * astraccl Ring.cc): AllReduce 2(N−1) (reduce-scatter then all-gather), AllGather, ReduceScatter and AllToAll N−1,
 * the pipelined Broadcast and Reduce N−1, SendRecv one.
 */
public final class RingSteps {

    private RingSteps() {
    }

    /** The configuration every ring model needs: two ranks and one hop per step at least. */
    public static void requireRing(int ranks, int hops) {
        if (ranks < 2) {
            throw new IllegalArgumentException("a ring needs at least 2 ranks, got " + ranks);
        }
        if (hops < 1) {
            throw new IllegalArgumentException("hops per step must be at least 1, got " + hops);
        }
    }

    public static int of(Collective c, int ranks) {
        return switch (c) {
            case ALL_REDUCE -> 2 * (ranks - 1);
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, ALL_TO_ALL_V, BROADCAST, REDUCE, GATHER, SCATTER -> ranks - 1;
            // log2(N) exchange rounds, the hypercube's whole point
            case HYPERCUBE -> 32 - Integer.numberOfLeadingZeros(ranks - 1);
            case SEND_RECV -> 1;
            case UNKNOWN -> throw new IllegalArgumentException("no ring steps for an unknown collective");
        };
    }
}
