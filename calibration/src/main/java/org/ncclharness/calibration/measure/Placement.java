package org.ncclharness.calibration.measure;

/** Which half of an nccl-tests row a value comes from. */
public enum Placement {
    OUT_OF_PLACE("out-of-place"),
    IN_PLACE("in-place");

    private final String label;

    Placement(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
