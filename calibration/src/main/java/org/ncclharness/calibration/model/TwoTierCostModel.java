package org.ncclharness.calibration.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.twotier.TwoTierConfig;
import org.ncclharness.calibration.twotier.TwoTierForm;
import org.ncclharness.calibration.twotier.TwoTierModel;
import org.ncclharness.calibration.twotier.TwoTierParams;

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
    public Map<String, Object> configuration() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("collective", "all_reduce");
        m.put("shape", shape.id());
        m.put("domains", config.domains());
        m.put("gpusPerDomain", config.gpusPerDomain());
        m.put("ranks", config.ranks());
        m.put("betaNvGBps", betaNvGBps);
        m.put("hops", hops);
        return m;
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
    public TwoTierCostModel at(TwoTierConfig other) {
        return new TwoTierCostModel(shape, other, betaNvGBps, hops);
    }

    static TwoTierCostModel fromConfiguration(Map<String, ?> c) {
        TwoTierForm shape = TwoTierForm.byId(String.valueOf(c.get("shape")))
                .orElseThrow(() -> new IllegalArgumentException("unknown two-tier shape " + c.get("shape")));
        return new TwoTierCostModel(shape, new TwoTierConfig(((Number) c.get("domains")).intValue(),
                ((Number) c.get("gpusPerDomain")).intValue()), ((Number) c.get("betaNvGBps")).doubleValue(),
                ((Number) c.get("hops")).intValue());
    }
}
