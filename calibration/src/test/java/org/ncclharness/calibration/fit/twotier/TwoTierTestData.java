package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParams;
import java.util.ArrayList;
import java.util.List;

/**
 * Shared synthetic hardware: an HGX-like NVLink4 system (β_NV 450 GB/s, 2 hops) with known parameters; u_NV·β_NV
 * = 360 GB/s above β_IB = 300 GB/s, so a flat ring of it is inter-domain bound.
 */
final class TwoTierTestData {
    static final double BETA_NV = 450;
    static final int HOPS = 2;
    static final TwoTierParams TRUTH = new TwoTierParams(0.80, 300, 0.9, 4.0, 12.0);
    static final double[] SIZES = TwoTierSynthetic.powersOfTwo(1024, 8L << 30);

    private TwoTierTestData() {
    }

    static TwoTierProblem one(TwoTierForm form, TwoTierConfig c, TwoTierParams truth, double noise, long seed) {
        return TwoTierProblem.of(TwoTierSynthetic.run(form, c, BETA_NV, HOPS, truth, SIZES, noise, seed), BETA_NV, HOPS);
    }

    static TwoTierProblem joint(TwoTierForm form, List<TwoTierConfig> configs, TwoTierParams truth, double noise) {
        List<TwoTierRun> runs = new ArrayList<>();
        long seed = 1;
        for (TwoTierConfig c : configs) {
            runs.add(TwoTierSynthetic.run(form, c, BETA_NV, HOPS, truth, SIZES, noise, seed++));
        }
        return TwoTierProblem.of(runs, BETA_NV, HOPS);
    }

    static ParamRanges box(int points) {
        return new ParamRanges(new ParamRange(0.3, 1.0, points), new ParamRange(50, 1000, points),
                new ParamRange(0, 3, points), new ParamRange(0, 20, points), new ParamRange(0, 40, points));
    }
}
