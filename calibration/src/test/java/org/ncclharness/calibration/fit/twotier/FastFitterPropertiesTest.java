package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParams;
import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

class FastFitterPropertiesTest {

    /** Whatever the data, the exact fit is at least as good as every point of the grid over the same box. */
    @Property(tries = 40)
    void fastFitIsNeverWorseThanTheGrid(@ForAll @DoubleRange(min = 0.3, max = 1.0) double u,
                                        @ForAll @DoubleRange(min = 20, max = 900) double beta,
                                        @ForAll @DoubleRange(min = 0, max = 3) double ellNv,
                                        @ForAll @DoubleRange(min = 0, max = 20) double ellIb,
                                        @ForAll @DoubleRange(min = 0, max = 40) double tSw,
                                        @ForAll @IntRange(min = 1, max = 8) int domains,
                                        @ForAll @IntRange(min = 1, max = 8) int gpus,
                                        @ForAll @DoubleRange(min = 0, max = 0.05) double noise,
                                        @ForAll boolean flat) {
        if (domains * gpus < 2) {
            return;
        }
        TwoTierForm form = flat ? TwoTierForm.FLAT_RING : TwoTierForm.HIERARCHICAL;
        TwoTierProblem p = TwoTierTestData.one(form, new TwoTierConfig(domains, gpus),
                new TwoTierParams(u, beta, ellNv, ellIb, tSw), noise, 99);
        ParamRanges box = TwoTierTestData.box(4);
        for (TwoTierForm fitForm : TwoTierForm.values()) {
            GridResult grid = GridSearch.run(p, fitForm, box, 1, GridProgress.NONE);
            FastResult fast = TwoTierFitter.best(p, fitForm, box);
            assertThat(fast.rmspePct()).isLessThanOrEqualTo(grid.rmspePct() * (1 + 1e-9) + 1e-12);
        }
    }
}
