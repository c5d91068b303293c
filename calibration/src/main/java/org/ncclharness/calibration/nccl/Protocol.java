package org.ncclharness.calibration.nccl;

/** NCCL's three wire protocols (reference D.1), in NCCL's index order (the order its tuner breaks ties in). */
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
}
