package org.ncclharness.calibration.nccl;

/**
 * NCCL's compute-capability index (src/graph/tuning.cc): Volta below SM80, Ampere SM80–89, Hopper SM90–99, Blackwell
 * SM100 and up. The tuner's bandwidth caps are tabled by it.
 */
public enum GpuClass {
    VOLTA("Volta"),
    AMPERE("Ampere"),
    HOPPER("Hopper"),
    BLACKWELL("Blackwell");

    private final String label;

    GpuClass(String label) {
        this.label = label;
    }

    /** The key of the class in the constant files. */
    public String label() {
        return label;
    }

    public static GpuClass ofSm(int sm) {
        if (sm < 80) {
            return VOLTA;
        }
        if (sm < 90) {
            return AMPERE;
        }
        return sm < 100 ? HOPPER : BLACKWELL;
    }
}
