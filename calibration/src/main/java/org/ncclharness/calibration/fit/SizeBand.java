package org.ncclharness.calibration.fit;

/** The message-size bands RMSPE is reported in (docs/calibration.md). */
public enum SizeBand {
    SMALL("< 1 MiB"),
    MEDIUM("1-128 MiB"),
    LARGE("> 128 MiB");

    private static final long MIB = 1L << 20;

    private final String label;

    SizeBand(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** M &lt; 1 MiB, 1 MiB ≤ M ≤ 128 MiB, M &gt; 128 MiB. */
    public static SizeBand of(double bytes) {
        if (bytes < MIB) {
            return SMALL;
        }
        return bytes <= 128 * MIB ? MEDIUM : LARGE;
    }
}
