package org.ncclharness.calibration.model;

import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.measure.Collective;

/**
 * The two-tier AllReduce model (hierarchical or flat ring, {@link TwoTierForm}) as a {@link CostModel}, so a
 * calibration report stores and rebuilds it like any other: θ = (u_NV, β_IB, ℓ_nv, ℓ_ib, T_sw) at one
 * configuration d × g, with the fabric's β_NV and hops.
 */
public record TwoTierCostModel(TwoTierForm shape, TwoTierConfig config, double betaNvGBps, int hops)
        implements CostModel {

    public static final String FORM = "two-tier";
    private static final List<String> NAMES = List.of("uNv", "betaIbGBps", "ellNvUs", "ellIbUs", "tSwUs");

    @Override
    public String form() {
        return FORM;
    }

    @Override
    public TwoTierConfiguration configuration() {
        return new TwoTierConfiguration(shape, config.domains(), config.gpusPerDomain(), betaNvGBps, hops);
    }

    /** AllReduce, the only collective the two-tier forms describe. */
    @Override
    public Collective collective() {
        return Collective.ALL_REDUCE;
    }

    @Override
    public int ranks() {
        return config.ranks();
    }

    @Override
    public Optional<TwoTierConfig> domains() {
        return Optional.of(config);
    }


    @Override
    public List<String> parameterNames() {
        return NAMES;
    }

    @Override
    public double timeUs(double bytes, double[] theta) {
        return TwoTierModel.timeUs(shape, config, betaNvGBps, hops, params(theta), bytes);
    }

    /** θ in {@link #parameterNames()} order. */
    public static double[] theta(TwoTierParams p) {
        return new double[] {p.uNv(), p.betaIbGBps(), p.ellNvUs(), p.ellIbUs(), p.tSwUs()};
    }

    public static TwoTierParams params(double[] theta) {
        return new TwoTierParams(theta[0], theta[1], theta[2], theta[3], theta[4]);
    }

    /** The same calibrated hardware at another configuration (the per-hop and per-step parameters carry over). */
    @Override
    public TwoTierCostModel at(Scale scale) {
        return new TwoTierCostModel(shape, scale.domainsFrom(config), betaNvGBps, hops);
    }

    @Override
    public <R> R accept(CostModelVisitor<R> visitor) {
        return visitor.twoTier(this);
    }
}
