package org.ncclharness.calibration.model;

/**
 * The five free parameters of the two-tier model, in the order every array in this package uses.
 * The latencies are per hop / per step (ℓ), not per configuration (α): ℓ is what stays the same when the same
 * hardware runs at another d × g, so it is what a joint fit can share and what a grid can search once.
 */
public enum TwoTierParam {
    /** Sustained fraction of the physical NVLink bandwidth, dimensionless. */
    U_NV("u_NV", ""),
    /** Inter-domain bandwidth per domain (all NICs of the domain together), GB/s. */
    BETA_IB("beta_IB", "GB/s"),
    /** Per-hop NVLink latency: α_nv = 2(g−1)·hops·ℓ_nv, µs. */
    ELL_NV("ell_nv", "us"),
    /** Per-step inter-domain latency: α_ib = 2(d−1)·ℓ_ib, µs. */
    ELL_IB("ell_ib", "us"),
    /** Fixed per-operation switch traversal / software term, µs. */
    T_SW("T_sw", "us");

    private final String id;
    private final String unit;

    TwoTierParam(String id, String unit) {
        this.id = id;
        this.unit = unit;
    }

    public String id() {
        return id;
    }

    public String unit() {
        return unit;
    }
}
