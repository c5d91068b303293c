package org.ncclharness.calibration.model;

/**
 * One point of the five-parameter space (see {@link TwoTierParam} for meanings and units).
 */
public record TwoTierParams(double uNv, double betaIbGBps, double ellNvUs, double ellIbUs, double tSwUs) {

    /** The value of one parameter. */
    public double get(TwoTierParam p) {
        return switch (p) {
            case U_NV -> uNv;
            case BETA_IB -> betaIbGBps;
            case ELL_NV -> ellNvUs;
            case ELL_IB -> ellIbUs;
            case T_SW -> tSwUs;
        };
    }

    /** α_nv at a configuration: 2(g−1)·hops·ℓ_nv. */
    public double alphaNvUs(TwoTierConfig c, int hops) {
        return c.alphaNvPerEllUs(hops) * ellNvUs;
    }

    /** α_ib at a configuration: 2(d−1)·ℓ_ib. */
    public double alphaIbUs(TwoTierConfig c) {
        return c.alphaIbPerEllUs() * ellIbUs;
    }
}
