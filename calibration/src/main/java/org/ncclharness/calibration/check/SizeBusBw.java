package org.ncclharness.calibration.check;

import org.ncclharness.calibration.io.CFormat;
import org.ncclharness.calibration.measure.Measurement;

/** The busbw {@code check} judges per size, and how precisely nccl-tests printed it. */
public final class SizeBusBw {

    private SizeBusBw() {
    }

    /** Out-of-place busbw (the half the calibration fits), else in-place where that is all there is. */
    public static Double of(Measurement m) {
        return m.outOfPlace().busBwGBps() != null ? m.outOfPlace().busBwGBps() : m.inPlace().busBwGBps();
    }

    /**
     * Significant digits of the value as nccl-tests prints a busbw (width 6): {@code 0.17} has 2, {@code 0.05}
     * has 1, {@code 0.00} none. Values printed with fewer than 2 are too coarse to call a dip.
     */
    public static int printedSignificantDigits(double busBwGBps) {
        String s = CFormat.floatStr(busBwGBps, 6).trim();
        int e = s.toLowerCase().indexOf('e');
        String mantissa = (e >= 0 ? s.substring(0, e) : s).replace("-", "").replace(".", "");
        return mantissa.replaceFirst("^0+", "").length();
    }
}
