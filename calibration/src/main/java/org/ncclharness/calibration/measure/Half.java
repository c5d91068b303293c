package org.ncclharness.calibration.measure;

/**
 * One placement (out-of-place or in-place) of one nccl-tests row. A field the source does not give is null:
 * a busbw-only summary table has no time, nccl-tests prints {@code N/A} for #wrong when checking is off.
 *
 * @param timeUs    time per iteration in microseconds, as printed
 * @param algBwGBps algorithm bandwidth, decimal GB/s
 * @param busBwGBps bus bandwidth, decimal GB/s
 * @param wrong     #wrong (a count since nccl-tests 2.13; the max absolute error in the older {@code error}
 *                  column); null for N/A
 */
public record Half(Double timeUs, Double algBwGBps, Double busBwGBps, Double wrong) {

    /** True when the source gives neither a time nor a bandwidth for this placement. */
    public boolean isEmpty() {
        return timeUs == null && algBwGBps == null && busBwGBps == null && wrong == null;
    }

    public boolean hasTime() {
        return timeUs != null;
    }

    public static Half empty() {
        return new Half(null, null, null, null);
    }
}
