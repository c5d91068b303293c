package org.ncclharness.calibration.fit.envelope;

import java.util.List;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.measure.Collective;

/**
 * The most busbw any algorithm NCCL could run moves between domains, as a ceiling for a fitted bandwidth.
 *
 * <p>A ring crosses each domain boundary with all of a domain's NICs and its busbw counts exactly that traffic:
 * at most the line rate L ({@link org.ncclharness.calibration.hardware.LineRate#busBwCeilingGBps}). Fewer bytes
 * over the network lift busbw above L, and no algorithm sends fewer than a reduce-scatter and an all-gather
 * between the d domains: each domain's NICs carry 2(d − 1)/d of its data for AllReduce ((d − 1)/d for AllGather and
 * ReduceScatter) where the ring's busbw counts 2(N − 1)/N ((N − 1)/N), so
 * busbw ≤ L·(N − 1)·d/(N·(d − 1)): 1.875·L on 2 domains of 8 (Tree, NVLSTree), 1.006·L on 128 of 4. Only a
 * switch that reduces (CollNet/SHARP) sends each domain's data once and takes the result once: AllReduce's busbw
 * ≤ L·2(N − 1)/N. Broadcast and Reduce move each byte into (out of) every domain once: L. A run that forced Ring:
 * L. The bundled runs that state their NICs stay within it (docs/two-tier.md lists them: 0.26 of L with Ring
 * forced, up to 1.57·L on 2 domains of 8 where the factor is 1.875).
 *
 * <p>A measured size above the ceiling says the NICs are misstated (or a reduction the facts do not name ran): the
 * ceiling then says nothing of the data and none is applied (calibrate's R flag and note say why).
 */
public final class BandwidthCeiling {

    private BandwidthCeiling() {
    }

    /**
     * The ceiling of a run's busbw between its domains, null where the line rate is not known or the run is on one
     * domain.
     *
     * @param lineRateGBps  what the network carries of the collective's ring busbw between domains, or null
     * @param ringForced    the run forced NCCL_ALGO=Ring: nothing but the ring ran
     * @param switchReduces the network reduces in its switches (SHARP): CollNet can run AllReduce
     */
    public static Double of(Double lineRateGBps, Collective c, int ranks, int domains, boolean ringForced,
                            boolean switchReduces) {
        if (lineRateGBps == null || domains < 2) {
            return null;
        }
        double n = ranks;
        double hierarchical = (n - 1) * domains / (n * (domains - 1));
        double factor = ringForced ? 1 : switch (c) {
            case ALL_REDUCE -> switchReduces ? 2 * (n - 1) / n : hierarchical;
            case ALL_GATHER, REDUCE_SCATTER -> hierarchical;
            default -> 1;
        };
        return lineRateGBps * factor;
    }

    /**
     * {@code ceilingGBps} where no measured busbw of {@code runs} (the points a fit uses) passed it, else null: no
     * ceiling.
     */
    public static Double unpassed(Double ceilingGBps, List<FitPoints> runs) {
        return unpassed(runs.stream().map(r -> ceilingGBps).toList(), runs);
    }

    /**
     * The lowest of the runs' ceilings (one β for them all) where none is null and no run's measured busbw passed
     * its own, else null.
     */
    public static Double unpassed(List<Double> ceilingsGBps, List<FitPoints> runs) {
        double lowest = Double.POSITIVE_INFINITY;
        for (int r = 0; r < runs.size(); r++) {
            Double c = ceilingsGBps.get(r);
            if (c == null) {
                return null;
            }
            for (double b : runs.get(r).busBwGBps()) {
                if (b > c) {
                    return null;
                }
            }
            lowest = Math.min(lowest, c);
        }
        return Double.isFinite(lowest) ? lowest : null;
    }

    /** θ's β within the ceiling (a pinned β, held rather than fitted, is not clamped by the optimiser). */
    static boolean holds(Double ceilingGBps, double betaGBps) {
        return ceilingGBps == null || betaGBps <= ceilingGBps;
    }
}
