package org.ncclharness.calibration.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Collective;

class SingleTierModelTest {

    @Test
    void methodBKnownAnswerH200EightGpusTwoHops() {
        int hops = HardwareFacts.bundled().topologyOf(HardwareFacts.bundled().interconnect("NVLink4").orElseThrow())
                .hopsPerStep();
        SingleTierModel m = new SingleTierModel(Collective.ALL_REDUCE, 8, hops, LatencyRule.PIPELINE);
        // α = 2(N−1)·hops·ℓ = 2·7·2·0.936 = 26.208 µs
        assertThat(m.alphaUs(new double[] {0.936, 400})).isCloseTo(26.208, within(1e-9));
        assertThat(Math.round(m.alphaUs(new double[] {0.936, 400}) * 10) / 10.0).isEqualTo(26.2);
    }

    @Test
    void methodAIsNMinusOneSteps() {
        SingleTierModel a = new SingleTierModel(Collective.ALL_REDUCE, 8, 2, LatencyRule.STEP_SUM);
        assertThat(a.alphaUs(new double[] {8.5, 400})).isCloseTo(59.5, within(1e-12));
    }

    @Test
    void busBandwidthTendsToBetaEff() {
        SingleTierModel m = new SingleTierModel(Collective.ALL_REDUCE, 8, 2, LatencyRule.PIPELINE);
        double bytes = 1e15;
        double t = m.timeUs(bytes, new double[] {1, 400});
        double busBw = m.busFactor() * bytes / (t * 1e3);
        assertThat(busBw).isCloseTo(400, within(1e-3));
    }

    @Property(tries = 50)
    void theAnalyticGradientIsTheNumericOne(@ForAll @DoubleRange(min = 0.01, max = 20) double ell,
                                            @ForAll @DoubleRange(min = 1, max = 900) double beta,
                                            @ForAll @IntRange(min = 2, max = 128) int ranks) {
        SingleTierModel m = new SingleTierModel(Collective.ALL_REDUCE, ranks, 2, LatencyRule.PIPELINE);
        double[] theta = {ell, beta};
        double bytes = 1 << 24;
        double[] analytic = m.gradient(bytes, theta);
        ParametricTime numeric = new ParametricTime() {
            public List<String> parameterNames() { return m.parameterNames(); }
            public double timeUs(double b, double[] t) { return m.timeUs(b, t); }
        };
        double[] g = numeric.gradient(bytes, theta);
        // A central difference loses digits to cancellation when the bandwidth term dwarfs the step: 1e-3 relative.
        assertThat(analytic[0]).isCloseTo(g[0], within(1e-3 * Math.abs(g[0])));
        assertThat(analytic[1]).isCloseTo(g[1], within(1e-3 * Math.abs(g[1])));
    }

    @Test
    void aModelRebuildsFromItsConfiguration() {
        SingleTierModel m = new SingleTierModel(Collective.ALL_GATHER, 16, 1, LatencyRule.STEP_SUM);
        assertThat(m.configuration().model()).isEqualTo(m);
    }

    @Test
    void ringStepsFollowTheCollective() {
        assertThat(RingSteps.of(Collective.ALL_REDUCE, 8)).isEqualTo(14);
        assertThat(RingSteps.of(Collective.ALL_GATHER, 8)).isEqualTo(7);
    }
}
