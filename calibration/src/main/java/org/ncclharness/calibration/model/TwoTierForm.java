package org.ncclharness.calibration.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The two shapes of a two-tier AllReduce, with d domains × g GPUs (N = d·g), M bytes per rank. Both carry the
 * same latency terms T_sw + α_nv + α_ib; they differ in how the two bandwidths combine.
 */
public enum TwoTierForm {
    /**
     * Intra-domain reduce-scatter, inter-domain all-reduce of the 1/g shard, intra-domain all-gather:
     * T = T_sw + α_nv + α_ib + (2(g−1)/g)·M/(u_NV·β_NV) + (2(d−1)/d)·M/β_IB. The two bandwidth terms add, so
     * β_IB here is what one domain moves across the inter-domain fabric (all its NICs together).
     */
    HIERARCHICAL("hierarchical"),
    /**
     * One ring over all N ranks, limited by its slowest link:
     * T = T_sw + α_nv + α_ib + (2(N−1)/N)·M/min(u_NV·β_NV, β_IB). With a single domain (d = 1) the ring never
     * leaves NVLink, so the slowest link is u_NV·β_NV alone; that is what lets a 1-domain run pin u_NV.
     */
    FLAT_RING("flat-ring");

    private final String id;

    TwoTierForm(String id) {
        this.id = id;
    }

    /** The name reports and flags use: {@code hierarchical}, {@code flat-ring}. */
    public String id() {
        return id;
    }

    public static Optional<TwoTierForm> byId(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        return Arrays.stream(values()).filter(f -> f.id.equals(n)).findFirst();
    }
}
