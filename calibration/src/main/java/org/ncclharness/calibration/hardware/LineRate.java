package org.ncclharness.calibration.hardware;

import org.ncclharness.calibration.measure.Collective;

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
     * The busbw a collective can reach between domains whose NICs carry {@code networkGBps} per domain, null where
     * that is not known or the NICs do not bound busbw this way.
     * <ul>
     * <li>A ring (AllReduce, AllGather, ReduceScatter, Broadcast, Reduce) crosses each domain boundary with all of
     * a domain's NICs, and its busbw counts exactly that traffic: the line rate itself.</li>
     * <li>AllToAll sends only (N − g)/N of each rank's data out of its domain of g, while busbw counts (N − 1)/N of
     * it: a domain moves g(N − g)/N · M over its NICs, so busbw ≤ (N − 1) · line / (g (N − g)). 16 GPUs on 2 hosts
     * of 8 NICs at 50 GB/s: 93.75 GB/s, not 400.</li>
     * <li>SendRecv, Gather and Scatter move one rank's data at a time through the NICs near it: a host's NICs
     * together say nothing of their busbw (null).</li>
     * </ul>
     */
    public static Double busBwCeilingGBps(Collective c, int ranks, int perDomain, Double networkGBps) {
        if (networkGBps == null || perDomain <= 0 || ranks <= perDomain) {
            return null;
        }
        return switch (c) {
            case ALL_TO_ALL -> (ranks - 1) * networkGBps / ((double) perDomain * (ranks - perDomain));
            // alltoallv's per-peer bytes follow its pattern, not one even share: no single ceiling
            case SEND_RECV, GATHER, SCATTER, ALL_TO_ALL_V, UNKNOWN -> null;
            default -> networkGBps;
        };
    }

    /**
     * Why a collective's busbw stands above what the network carries for it: {@link #ABOVE_NETWORK} for a
     * reduction; more or faster NICs than stated for one that reduces nothing (no tree or switch reduction lifts
     * it; AllGather and Broadcast may still run on NVLS multicast).
     */
    public static String aboveNetwork(Collective c) {
        return c.reduces() ? ABOVE_NETWORK : "more or faster NICs than stated (" + c.ncclName() + " reduces nothing,"
                + " so no tree or in-network reduction lifts it" + (c == Collective.ALL_GATHER
                || c == Collective.BROADCAST ? ", unless NVLS multicast ran it" : "") + ")";
    }

    /**
     * Why busbw stands above the line rate of {@code ic}: between domains {@link #ABOVE_NETWORK} for a reduction,
     * more or faster NICs than stated for a collective that reduces nothing; inside one domain, only the fabric's
     * own in-network reduction lifts busbw, else the fabric was misstated.
     *
     * @param network whether the line rate is the network's between domains
     */
    public static String whyAbove(Interconnect ic, boolean network, Collective c) {
        if (network) {
            return aboveNetwork(c);
        }
        return ic.inNetworkReduction() != null ? "in-network reduction (" + ic.inNetworkReduction() + "), which the"
                + " alpha-beta ring model cannot represent" : "more links than stated, or a misstated interconnect";
    }
}
