package org.ncclharness.harness.figure;

/**
 * One measured point of a series.
 *
 * @param bytes     the nccl-tests {@code size} column
 * @param busBwGBps bus bandwidth as the source gives it, decimal GB/s
 * @param timeUs    time per iteration in microseconds, null when the source has none (then no residual)
 * @param leftOut   a measurement glitch the fit left out: drawn, but hollow, so the curves need not pass it
 */
public record SizePoint(long bytes, double busBwGBps, Double timeUs, boolean leftOut) {

    /** A point the fit used. */
    public SizePoint(long bytes, double busBwGBps, Double timeUs) {
        this(bytes, busBwGBps, timeUs, false);
    }
}
