package org.ncclharness.calibration.model;

import org.ncclharness.calibration.measure.InputException;

/**
 * One two-tier configuration: {@code domains} NVLink domains of {@code gpusPerDomain} GPUs each, N = d·g ranks.
 * The tier-1 unit is the NVLink domain, not the host (docs/two-tier.md): 8 GPUs for an HGX node, 72 for an NVL72 rack.
 *
 * @param domains        d ≥ 1
 * @param gpusPerDomain  g ≥ 1
 */
public record TwoTierConfig(int domains, int gpusPerDomain) {

    public TwoTierConfig {
        if (domains < 1 || gpusPerDomain < 1) {
            throw new InputException("configuration", 0, "got " + domains + " domains x " + gpusPerDomain
                    + " GPUs per domain; both must be at least 1 (e.g. 2x8 for two HGX nodes)");
        }
    }

    /** N = d·g. */
    public int ranks() {
        return domains * gpusPerDomain;
    }

    /** Coefficient of ℓ_nv in α_nv = 2(g−1)·hops·ℓ_nv. */
    public double alphaNvPerEllUs(int hops) {
        return 2.0 * (gpusPerDomain - 1) * hops;
    }

    /** Coefficient of ℓ_ib in α_ib = 2(d−1)·ℓ_ib. */
    public double alphaIbPerEllUs() {
        return 2.0 * (domains - 1);
    }

    /** {@code 2x8} style label: domains × GPUs per domain. */
    public String label() {
        return domains + "x" + gpusPerDomain;
    }
}
