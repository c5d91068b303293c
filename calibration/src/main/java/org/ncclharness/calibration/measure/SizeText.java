package org.ncclharness.calibration.measure;

import java.util.Locale;

/**
 * Sizes as people read them, in binary units (B, KiB, MiB, GiB, TiB), the units nccl-tests' sizes come in. Two
 * forms: {@link #exact} for a measured row's size, which must never round (a 1048560-byte row is not 1 MiB), and
 * {@link #approx} for a range bound or a crossover, where three significant digits say enough.
 */
public final class SizeText {

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private SizeText() {
    }

    /** The largest unit the size is a whole multiple of: {@code 16 MiB}, but {@code 1048560 B}. */
    public static String exact(long bytes) {
        int u = 0;
        long v = bytes;
        while (u < UNITS.length - 1 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + " " + UNITS[u];
    }

    /** The largest unit below the size, three significant digits: {@code 8 GiB}, {@code 1.5 MiB}, {@code 1000 KiB}. */
    public static String approx(double bytes) {
        int u = 0;
        double v = bytes;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        String digits = String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.3g", v);
        if (digits.contains(".")) {
            digits = digits.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return digits + " " + UNITS[u];
    }
}
