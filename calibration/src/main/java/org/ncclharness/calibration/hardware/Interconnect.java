package org.ncclharness.calibration.hardware;

/**
 * One interconnect of {@code hardware/interconnects.json}.
 *
 * @param name               vocabulary name used in the metadata and on the command line ({@code NVLink4})
 * @param betaPhysGBps       physical unidirectional bandwidth, decimal GB/s; null where no fixed figure exists
 *                           (TCP, EFA: the note says why)
 * @param topology           name of the {@link Topology} a ring step crosses
 * @param inNetworkReduction the mechanism that can lift busbw above the line rate on this interconnect
 *                           ({@code NVLS}, {@code SHARP}), null where there is none
 * @param source             where the figure comes from
 * @param note               caveats (per NIC, x16 assumed, ...)
 */
public record Interconnect(String name, Double betaPhysGBps, String topology, String inNetworkReduction,
                           String source, String note) {
}
