package org.ncclharness.calibration.fit.twotier;

/**
 * What the two-tier fit needs to know about the intra-domain fabric, from the hardware facts (never typed in
 * code): its physical unidirectional bandwidth and the hops of one ring step.
 */
public record Fabric(String name, double betaNvGBps, int hops) {
}
