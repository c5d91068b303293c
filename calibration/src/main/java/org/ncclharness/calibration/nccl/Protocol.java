package org.ncclharness.calibration.nccl;

import org.ncclharness.calibration.measure.Collective;

/**
 * NCCL's three wire protocols (src/include/plugin/nccl_tuner.h), in NCCL's index order (the order its tuner breaks ties
 * in).
 */
public enum Protocol {
    LL("LL"),
    LL128("LL128"),
    SIMPLE("Simple");

    private final String label;

    Protocol(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * Whether NCCL can run {@code c} on this protocol. The collectives its tuner picks for run on all three; the
     * point-to-point ones (AllToAll, Gather, Scatter, SendRecv: grouped sends and receives) on LL up to
     * nChannels·NCCL_P2P_LL_THRESHOLD bytes and on Simple above, never on LL128 (src/enqueue.cc, addP2pToPlan).
     */
    public boolean runs(Collective c) {
        return this != LL128 || Algorithm.tuned(c);
    }
}
