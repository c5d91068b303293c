package org.ncclharness.calibration.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;

/** The glitch detector on curves whose shape is known. */
class GlitchesTest {

    /**
     * T = α + M/β on a geometric grid of factor 2 to 4 (nccl-tests' -f): no glitch, and a point planted 2x above is
     * found wherever it is. On coarser grids the neighbours' line bends over the knee and can hide one there.
     */
    @Property(tries = 200)
    void aSmoothCurveHasNoGlitchAndAPlantedOneIsFoundOnAnyGrid(@ForAll @IntRange(min = 2, max = 4) int factor,
                                                             @ForAll @DoubleRange(min = 1, max = 100) double alphaUs,
                                                             @ForAll @DoubleRange(min = 1, max = 500) double gbps,
                                                             @ForAll @IntRange(min = 1, max = 8) int at) {
        int n = 10;
        double[] b = new double[n];
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            b[i] = 1024 * Math.pow(factor, i);
            t[i] = alphaUs + b[i] / (gbps * 1e3);
        }
        assertThat(Glitches.aboveNeighbours(b, t, 1.43)).isEmpty();
        t[at] *= 2;
        assertThat(Glitches.aboveNeighbours(b, t, 1.43)).extracting(Glitches.Glitch::bytes).contains(b[at]);
    }

    @Test
    void theNeighboursLineIsTheirGeometricMeanOnAnEvenGrid() {
        double[] b = {1, 4, 16};
        double[] t = {10, 0, 40};
        assertThat(Glitches.expectedFromNeighbours(b, t, 1)).isCloseTo(20, within(1e-9));
    }

    @Test
    void placementsTwiceApartDisagree() {
        Measurement ok = new Measurement(1024, 256, "float", "sum", -1, new Half(10.0, 1.0, 1.0, 0.0),
                new Half(19.0, 1.0, 1.0, 0.0));
        Measurement bad = new Measurement(2048, 512, "float", "sum", -1, new Half(10.0, 1.0, 1.0, 0.0),
                new Half(25.0, 1.0, 1.0, 0.0));
        assertThat(Glitches.placementsDisagree(List.of(ok, bad))).singleElement()
                .satisfies(g -> assertThat(g.factor()).isCloseTo(2.5, within(1e-9)));
    }
}
