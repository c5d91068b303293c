package org.ncclharness.harness.plot;

/**
 * One measured point of a series.
 *
 * @param bytes     the nccl-tests {@code size} column
 * @param busBwGBps bus bandwidth as the source gives it, decimal GB/s
 * @param timeUs    time per iteration in microseconds, null when the source has none (then no residual)
 */
public record SizePoint(long bytes, double busBwGBps, Double timeUs) { }
