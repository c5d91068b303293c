package org.ncclharness.calibration.model;

import org.ncclharness.calibration.measure.Collective;

/**
 * Sequential steps of the ring algorithm per collective (NCCL's nsteps, reference D.1; ASTRA-sim ring,
 * reference E.3): AllReduce 2(N−1) (reduce-scatter then all-gather), AllGather, ReduceScatter and AllToAll N−1,
 * the pipelined Broadcast and Reduce N−1, SendRecv one.
 */
public final class RingSteps {

    private RingSteps() {
    }

    public static int of(Collective c, int ranks) {
        return switch (c) {
            case ALL_REDUCE -> 2 * (ranks - 1);
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, BROADCAST, REDUCE -> ranks - 1;
            case SEND_RECV -> 1;
        };
    }
}
