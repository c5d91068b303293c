package org.ncclharness.calibration.check;

import org.ncclharness.calibration.measure.Measurement;

/** The busbw {@code check} judges per size, and the time of the same placement. */
public final class SizeBusBw {

    private SizeBusBw() {
    }

    /** Out-of-place busbw (the half the calibration fits), else in-place where that is all there is. */
    public static Double of(Measurement m) {
        return m.outOfPlace().busBwGBps() != null ? m.outOfPlace().busBwGBps() : m.inPlace().busBwGBps();
    }

    /** The time of the placement {@link #of} takes its busbw from, null where that placement has none. */
    public static Double timeOf(Measurement m) {
        return m.outOfPlace().busBwGBps() != null ? m.outOfPlace().timeUs() : m.inPlace().timeUs();
    }
}
