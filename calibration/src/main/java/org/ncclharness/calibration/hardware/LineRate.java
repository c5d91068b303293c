package org.ncclharness.calibration.hardware;

/**
 * The line rate a ring's busbw cannot exceed, and what a busbw above it means: one rule for {@code calibrate}'s
 * R flag and {@code check}'s peak finding, so the two never explain the same run differently.
 */
public final class LineRate {

    /**
     * Why busbw stands above the network's line rate between domains: a tree sends less over the network than a
     * ring, and NVLS/SHARP reduce in the switches.
     */
    public static final String ABOVE_NETWORK = "a tree or an in-network reduction (NVLS, SHARP) moved the data,"
            + " which the alpha-beta ring model cannot represent";

    private LineRate() {
    }

    /**
     * Between domains a ring uses every NIC of a domain at once: NICs per domain × one NIC's rate; null where
     * either is not known.
     */
    public static Double networkGBps(Integer nicsPerDomain, Double nicGBps) {
        return nicsPerDomain == null || nicGBps == null ? null : nicsPerDomain * nicGBps;
    }

    /**
     * Why busbw stands above the line rate of {@code ic}: between domains {@link #ABOVE_NETWORK}; inside one,
     * only the fabric's own in-network reduction lifts busbw, else the fabric was misstated.
     *
     * @param network whether the line rate is the network's between domains
     */
    public static String whyAbove(Interconnect ic, boolean network) {
        if (network) {
            return ABOVE_NETWORK;
        }
        return ic.inNetworkReduction() != null ? "in-network reduction (" + ic.inNetworkReduction() + "), which the"
                + " alpha-beta ring model cannot represent" : "more links than stated, or a misstated interconnect";
    }
}
