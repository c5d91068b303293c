package org.ncclharness.calibration.fit.envelope;

import java.util.List;
import org.ncclharness.calibration.fit.FitPoints;

/**
 * The ceiling of a fitted ring bandwidth across domains: the network's line rate for the collective
 * ({@link org.ncclharness.calibration.hardware.LineRate#busBwCeilingGBps}). A ring crosses every domain boundary
 * with all of a domain's NICs and its busbw counts exactly that traffic, so Ring/Simple's β cannot exceed it; no
 * bundled run that forced Ring and states its NICs measured more than 0.26 of it, none that did not force it and
 * stayed below it more than 0.95 (docs/two-tier.md), so the ceiling is the line rate itself, with no factor.
 *
 * <p>Only a tree (fewer bytes over the network than a ring), NVLS/NVLSTree or CollNet/SHARP (the switches reduce)
 * move a busbw above it; where a measured size did, one of those ran, the ring's ceiling says nothing of the data,
 * and none is applied (calibrate's R flag and note name them).
 */
public final class BandwidthCeiling {

    private BandwidthCeiling() {
    }

    /**
     * @param lineRateGBps the busbw the network carries for the collective between domains, null where not known
     * @param runs         the measured points of the runs a fit uses
     * @return the line rate where it is known and no measured size passed it, else null (no ceiling)
     */
    public static Double of(Double lineRateGBps, List<FitPoints> runs) {
        if (lineRateGBps == null) {
            return null;
        }
        for (FitPoints p : runs) {
            for (double b : p.busBwGBps()) {
                if (b > lineRateGBps) {
                    return null;
                }
            }
        }
        return lineRateGBps;
    }

    /** θ's β within the ceiling (a pinned β, held rather than fitted, is not clamped by the optimiser). */
    static boolean holds(Double ceilingGBps, double betaGBps) {
        return ceilingGBps == null || betaGBps <= ceilingGBps;
    }
}
