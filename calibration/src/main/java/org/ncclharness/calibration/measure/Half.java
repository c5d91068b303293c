package org.ncclharness.calibration.measure;

/**
 * One placement (out-of-place or in-place) of one nccl-tests row. A field the source does not give is null:
 * a busbw-only summary table has no time, nccl-tests prints {@code N/A} for #wrong when checking is off, and a
 * log has either the {@code #wrong} column or the older {@code error} column, never both.
 *
 * @param timeUs    time per iteration in microseconds, as printed
 * @param algBwGBps algorithm bandwidth, decimal GB/s
 * @param busBwGBps bus bandwidth, decimal GB/s
 * @param wrong     #wrong: the count of wrong elements (nccl-tests ≥ 2.12); null for N/A or where the source
 *                  has the {@code error} column instead
 * @param maxError  the {@code error} column of older nccl-tests and rccl-tests: the largest deviation from the
 *                  expected value, a fraction such as 5e-07; healthy runs print small non-zero values, so it is
 *                  never counted as wrong elements. Null where the source has #wrong
 */
public record Half(Double timeUs, Double algBwGBps, Double busBwGBps, Double wrong, Double maxError) {

    /** The #wrong of nearly every row: one shared box, not 16 bytes on each of a million rows (README, memory). */
    private static final Double ZERO = 0.0;

    public Half {
        wrong = wrong != null && Double.doubleToRawLongBits(wrong) == 0 ? ZERO : wrong;
    }

    /** A placement from a #wrong-column source (every current nccl-tests). */
    public Half(Double timeUs, Double algBwGBps, Double busBwGBps, Double wrong) {
        this(timeUs, algBwGBps, busBwGBps, wrong, null);
    }

    /** True when the source gives neither a time nor a bandwidth for this placement. */
    public boolean isEmpty() {
        return timeUs == null && algBwGBps == null && busBwGBps == null && wrong == null && maxError == null;
    }

    public boolean hasTime() {
        return timeUs != null;
    }

    /** True when the data check counted wrong elements (never true for the old error column). */
    public boolean hasWrongElements() {
        return wrong != null && wrong > 0;
    }

    public static Half empty() {
        return new Half(null, null, null, null, null);
    }
}
