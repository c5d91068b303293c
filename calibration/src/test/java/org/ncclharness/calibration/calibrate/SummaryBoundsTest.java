package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.DoubleUnaryOperator;
import java.util.stream.DoubleStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.fit.Identifiability;

/** The rules of {@link SummaryBounds} on one line T(M) = α + M/(β·1e3): what the sizes reach, judged by the error. */
class SummaryBoundsTest {

    /** α 10 µs, 100 GB/s. */
    private static final DoubleUnaryOperator LINE = m -> 10 + m / 100e3;

    /** Sizes that reach both limits: the error test alone decides. */
    private static final Identifiability BOTH = new Identifiability(true, true, 1e6, 1e-6, "data");

    /** Every power of two from 2^from to 2^to bytes. */
    private static double[] sizes(int from, int to) {
        return DoubleStream.iterate(Math.pow(2, from), m -> m <= Math.pow(2, to), m -> m * 2).toArray();
    }

    @Test
    void alphaIsShownOnlyWhereTheSizesPinItWithinTheError() {
        assertThat(SummaryBounds.of(BOTH, LINE, sizes(3, 32), 5, 100.0, 100, null).alphaReached()).isTrue();
        // 4 to 16 GiB: α is 0.02 % of the smallest time, far under a 5 % error
        assertThat(SummaryBounds.of(BOTH, LINE, sizes(32, 34), 5, 100.0, 100, null).alphaReached()).isFalse();
        // the same sizes timed to a millionth: α stands clear of its standard error
        assertThat(SummaryBounds.of(BOTH, LINE, sizes(32, 34), 1e-4, 100.0, 100, null).alphaReached()).isTrue();
    }

    @Test
    void theBusBwIsShownOnlyWhereTheSizesPinTheSlopeWithinTheError() {
        // up to 8 KiB the bandwidth term is 0.08 µs of 10.08: under a 5 % error
        assertThat(SummaryBounds.of(BOTH, LINE, sizes(3, 13), 5, 100.0, 1, null).busBwReached()).isFalse();
        assertThat(SummaryBounds.of(BOTH, LINE, sizes(3, 30), 5, 100.0, 99, null).busBwReached()).isTrue();
    }

    @Test
    void aBusBwBeyondTheLargestMeasuredOrTheLineRateIsFlaggedNotHidden() {
        SummaryBounds b = SummaryBounds.of(BOTH, LINE, sizes(3, 30), 5, 100.0, 90, 50.0);
        assertThat(b.busBwReached()).isTrue();
        assertThat(b.aboveMeasured()).as("100 > 90 x 1.05").isTrue();
        assertThat(b.aboveLineRate()).isTrue();
        SummaryBounds within = SummaryBounds.of(BOTH, LINE, sizes(3, 30), 5, 100.0, 96, null);
        assertThat(within.aboveMeasured()).as("100 <= 96 x 1.05").isFalse();
        assertThat(within.aboveLineRate()).as("no line rate known").isFalse();
    }

    /** The quantile Quantile stands for, computed the plain way. */
    private static double t(int degreesOfFreedom) {
        return new TDistribution(degreesOfFreedom).inverseCumulativeProbability(1 - (1 - SummaryBounds.CONFIDENCE) / 2);
    }

    @Test
    void theQuantileLiesInsideTheBandThatSettlesMostDecisionsWithoutIt() {
        for (int df = 1; df <= 2000; df++) {
            assertThat(t(df)).as("df %d", df).isGreaterThan(SummaryBounds.Quantile.T_BELOW)
                    .isLessThan(SummaryBounds.Quantile.T_ABOVE);
        }
    }

    /** Values near t·σ included: the band's edges and the quantile itself are where a shortcut would go wrong. */
    @Property(tries = 2000)
    void clearOfZeroDecidesAsIfTheQuantileWereComputedFirst(@ForAll @IntRange(min = -1, max = 60) int df,
                                                             @ForAll @DoubleRange(min = 0, max = 1e3) double sigma,
                                                             @ForAll @DoubleRange(min = 0.5, max = 20) double ratio) {
        double plainT = df > 0 ? t(df) : Double.POSITIVE_INFINITY;
        for (double value : new double[] {ratio * sigma, plainT * sigma, Math.nextDown(plainT * sigma),
            SummaryBounds.Quantile.T_BELOW * sigma, SummaryBounds.Quantile.T_ABOVE * sigma, -ratio * sigma}) {
            assertThat(new SummaryBounds.Quantile(df).clear(value, sigma)).as("df %d, %s >= t x %s", df, value, sigma)
                    .isEqualTo(value >= plainT * sigma);
        }
    }

    @Test
    void sizesOffTheLatencyPlateauHideAlphaHoweverWellTheLinePinsIt() {
        // timed to a millionth, α clears its error; busbw at the smallest size 40 % of the largest's does not put
        // the sizes on the latency plateau, so α stays unreached
        Identifiability ramp = new Identifiability(true, true, 12, 0.4, "data");
        SummaryBounds b = SummaryBounds.of(ramp, LINE, sizes(32, 34), 1e-4, 100.0, 100, null);
        assertThat(b.alphaReached()).isFalse();
        assertThat(b.busBwReached()).isTrue();
        assertThat(SummaryBounds.of(new Identifiability(true, true, 12, 0.1, "data"), LINE, sizes(32, 34), 1e-4,
                100.0, 100, null).alphaReached()).as("a tenth: on the plateau").isTrue();
    }

    @Test
    void aMetadataDeclarationHidesTheLimitItDeclaresUnreached() {
        Identifiability data = new Identifiability(true, true, 1e6, 1e-6, "data");
        SummaryBounds bw = SummaryBounds.of(data.declared(java.util.List.of(Identifiability.BANDWIDTH_ONLY)), LINE,
                sizes(3, 32), 1e-4, 100.0, 100, null);
        assertThat(bw.alphaReached()).isFalse();
        assertThat(bw.busBwReached()).isTrue();
        SummaryBounds lat = SummaryBounds.of(data.declared(java.util.List.of(Identifiability.LATENCY_ONLY)), LINE,
                sizes(3, 32), 1e-4, 100.0, 100, null);
        assertThat(lat.alphaReached()).isTrue();
        assertThat(lat.busBwReached()).isFalse();
    }
}
