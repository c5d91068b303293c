package org.ncclharness.calibration.nccl;

import java.util.EnumSet;
import java.util.Set;
import org.ncclharness.calibration.measure.Collective;

/**
 * NCCL's algorithms the models here cover, in NCCL's index order (Tree before Ring: its tuner keeps the first
 * of equal times, so ties go to Tree).
 */
public enum Algorithm {
    TREE("Tree"),
    RING("Ring");

    private final String label;

    Algorithm(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * The collectives NCCL's tuner picks an algorithm and protocol for (src/graph/tuning.cc's ncclFunc*); the
     * others (AllToAll, Gather, Scatter, SendRecv) run as point-to-point sends and receives, with no algorithm.
     */
    private static final Set<Collective> TUNED = EnumSet.of(Collective.ALL_REDUCE, Collective.ALL_GATHER,
            Collective.REDUCE_SCATTER, Collective.BROADCAST, Collective.REDUCE);

    /** Whether NCCL runs {@code c} by one of its algorithms, chosen by its tuner. */
    public static boolean tuned(Collective c) {
        return TUNED.contains(c);
    }
}
