package org.ncclharness.harness.options;

import java.util.EnumMap;
import java.util.Map;
import org.ncclharness.calibration.fit.twotier.ParamRange;
import org.ncclharness.calibration.model.TwoTierParam;
import picocli.CommandLine.Option;

/**
 * The two-tier grid's five ranges as flags, {@code MIN:MAX:POINTS} each (a picocli mixin, for any command that
 * runs the grid). A bad range is an input error (exit 2) naming the flag: negative bandwidth, min &gt; max, zero
 * points.
 */
public final class GridRangeOptions {

    @Option(names = "--grid-u-nv", paramLabel = "MIN:MAX:POINTS",
            description = "u_NV, the fraction of physical NVLink bandwidth sustained (> 0).")
    private String uNv;

    @Option(names = "--grid-beta-ib", paramLabel = "MIN:MAX:POINTS",
            description = "beta_IB, the inter-domain bandwidth per domain, GB/s (> 0).")
    private String betaIb;

    @Option(names = "--grid-ell-nv", paramLabel = "MIN:MAX:POINTS",
            description = "ell_nv, per-hop NVLink latency, us (>= 0); alpha_nv = 2(g-1)*hops*ell_nv.")
    private String ellNv;

    @Option(names = "--grid-ell-ib", paramLabel = "MIN:MAX:POINTS",
            description = "ell_ib, per-step inter-domain latency, us (>= 0); alpha_ib = 2(d-1)*ell_ib.")
    private String ellIb;

    @Option(names = "--grid-t-sw", paramLabel = "MIN:MAX:POINTS",
            description = "T_sw, the fixed per-operation switch/software term, us (>= 0).")
    private String tSw;

    /** The ranges given, checked; absent ones keep the default box's. */
    public Map<TwoTierParam, ParamRange> ranges() {
        Map<TwoTierParam, ParamRange> out = new EnumMap<>(TwoTierParam.class);
        put(out, TwoTierParam.U_NV, "--grid-u-nv", uNv);
        put(out, TwoTierParam.BETA_IB, "--grid-beta-ib", betaIb);
        put(out, TwoTierParam.ELL_NV, "--grid-ell-nv", ellNv);
        put(out, TwoTierParam.ELL_IB, "--grid-ell-ib", ellIb);
        put(out, TwoTierParam.T_SW, "--grid-t-sw", tSw);
        return out;
    }

    private static void put(Map<TwoTierParam, ParamRange> out, TwoTierParam p, String flag, String text) {
        if (text != null) {
            out.put(p, ParamRange.parse(p, flag, text));
        }
    }
}
