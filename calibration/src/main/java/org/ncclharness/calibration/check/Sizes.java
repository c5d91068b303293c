package org.ncclharness.calibration.check;

/** Sizes as people say them: 16 MiB rather than 16777216 B where the size is an exact binary multiple. */
public final class Sizes {

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Sizes() {
    }

    public static String human(long bytes) {
        int u = 0;
        long v = bytes;
        while (u < UNITS.length - 1 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + " " + UNITS[u];
    }
}
