package org.ncclharness.calibration.fit;

/**
 * The seed method's β (docs/calibration.md): u_r = BusBW_peak/β_phys with BusBW_peak the busbw at the largest measured
 * size, β_eff = β_phys·u_r. When BusBW_peak exceeds β_phys the α-β ring cannot represent the run (NVLS, SHARP): that is
 * flagged, and on topologies with a conservative in-network u_r (0.92 for NVSwitch-class systems) that value replaces
 * the one above 1.
 *
 * <p>The estimate is biased low wherever α matters at the largest size: with T = α + f·M/β,
 * busbw(M) = β/(1 + α·β/(f·M)), so u_r = (β/β_phys)/(1 + α·β/(f·M_max)) (see {@link #expectedBias}).
 *
 * @param busBwPeakGBps   busbw at the largest size
 * @param peakBytes       that size
 * @param betaPhysGBps    the physical bandwidth, null where the interconnect has no fixed figure
 * @param measuredUr      BusBW_peak/β_phys, null without β_phys
 * @param ur              the u_r used: the measured one, or the conservative in-network value when that applies;
 *                        null without β_phys
 * @param aboveLineRate   BusBW_peak &gt; β_phys: in-network reduction (detected from the data only)
 * @param betaEffGBps     β_eff = β_phys·u_r, or BusBW_peak itself without β_phys
 */
public record SeedUtilisation(double busBwPeakGBps, double peakBytes, Double betaPhysGBps, Double measuredUr,
                              Double ur, boolean aboveLineRate, double betaEffGBps) {

    /**
     * @param inNetworkUr the topology's conservative u_r for a run above line rate, null to keep the measured one
     */
    public static SeedUtilisation of(FitPoints points, Double betaPhysGBps, Double inNetworkUr) {
        int last = points.largest();
        double peak = points.busBwGBps()[last];
        if (betaPhysGBps == null) {
            return new SeedUtilisation(peak, points.bytes()[last], null, null, null, false, peak);
        }
        double measured = peak / betaPhysGBps;
        boolean above = peak > betaPhysGBps;
        double ur = above && inNetworkUr != null ? inNetworkUr : measured;
        return new SeedUtilisation(peak, points.bytes()[last], betaPhysGBps, measured, ur, above,
                betaPhysGBps * ur);
    }

    /** The conservative in-network u_r replaced a measured value above 1. */
    public boolean capped() {
        return ur != null && !ur.equals(measuredUr);
    }

    /**
     * The u_r the seed method reports for a run that follows T = α + f·M/β exactly: (β/β_phys)/(1 + α·β/(f·M)),
     * α in µs, β in GB/s (1 GB/s = 10³ bytes/µs), M the largest size.
     */
    public static double expectedBias(double alphaUs, double betaGBps, double busFactor, double bytes,
                                      double betaPhysGBps) {
        return (betaGBps / betaPhysGBps) / (1 + alphaUs * betaGBps * 1e3 / (busFactor * bytes));
    }
}
