package org.ncclharness.calibration.nccl;

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
}
