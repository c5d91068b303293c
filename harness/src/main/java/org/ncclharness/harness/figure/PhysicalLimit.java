package org.ncclharness.harness.figure;

/**
 * The datasheet bandwidth a series' interconnect cannot exceed on a plain ring (β_phys), drawn as a dashed line.
 * Busbw above it is the visible sign of in-network reduction (NVLS, SHARP); the calibration detects that and
 * passes it in the series' flags, the chart only draws both.
 *
 * @param interconnect name from the hardware data ({@code NVLink4}, {@code IB NDR})
 * @param betaGBps     physical unidirectional bandwidth, decimal GB/s
 */
public record PhysicalLimit(String interconnect, double betaGBps) {

    public PhysicalLimit {
        if (!(betaGBps > 0) || Double.isInfinite(betaGBps)) {
            throw new IllegalArgumentException("β_phys must be a positive bandwidth, got " + betaGBps);
        }
    }
}
