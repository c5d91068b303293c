package org.ncclharness.calibration.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RingTreeTest {

    @Test
    void theSpecWorkedExample() {
        // 7B parameters in FP16 = 14e9 bytes, N = 8, B = 25 GB/s, L = 10 us: T = 0.98 s + 0.14 ms.
        RingTree rt = new RingTree(8, 2, 25, 25, 10);
        assertThat(rt.ringUs(14e9)).isCloseTo(0.98e6 + 140, within(1e-6));
        assertThat(rt.ringLatencyUs()).isCloseTo(140, within(1e-12));
    }

    @Test
    void depthIsTheCeilingOfTheLogarithm() {
        assertThat(new RingTree(8, 2, 1, 1, 1).treeDepth()).isEqualTo(3);
        assertThat(new RingTree(9, 2, 1, 1, 1).treeDepth()).isEqualTo(4);
        assertThat(new RingTree(9, 3, 1, 1, 1).treeDepth()).isEqualTo(2);
        assertThat(new RingTree(2, 2, 1, 1, 1).treeDepth()).isEqualTo(1);
    }

    @Test
    void crossoverOfAnEightGpuRing() {
        // Ring latency 14L, Tree 6L; bandwidth terms 1.75 D/B against 2 D/B: D* = 8L / (0.25/B) = 32 L B.
        RingTree rt = new RingTree(8, 2, 25, 25, 10);
        assertThat(rt.crossoverBytes().getAsDouble()).isCloseTo(32 * 10 * 25e3, within(1e-6));
        assertThat(rt.faster(1e6)).isEqualTo("Tree");
        assertThat(rt.faster(1e8)).isEqualTo("Ring");
    }

    @Test
    void noCrossoverWhereOneAlgorithmAlwaysWins() {
        assertThat(new RingTree(2, 2, 25, 25, 10).crossoverBytes()).isEmpty(); // ring latency 2L = tree latency 2L
        assertThat(new RingTree(8, 2, 25, 100, 10).crossoverBytes()).isEmpty(); // root faster than the ring
    }

    @Property(tries = 200)
    void predictedCrossoverIsWhereSyntheticTimesChangePlaces(@ForAll @IntRange(min = 4, max = 4096) int n,
                                                             @ForAll @DoubleRange(min = 1, max = 500) double b,
                                                             @ForAll @DoubleRange(min = 0.5, max = 50) double l) {
        RingTree rt = new RingTree(n, 2, b, b, l);
        double predicted = rt.crossoverBytes().getAsDouble();
        int k = 60;
        double[] bytes = new double[k];
        double[] ring = new double[k];
        double[] tree = new double[k];
        for (int i = 0; i < k; i++) {
            bytes[i] = Math.pow(2, i);
            ring[i] = rt.ringUs(bytes[i]);
            tree[i] = rt.treeUs(bytes[i]);
        }
        List<Double> measured = RingTree.measuredCrossovers(bytes, ring, tree);
        assertThat(measured).hasSize(1);
        // Log interpolation between powers of two lands within the bracketing pair.
        assertThat(measured.get(0)).isBetween(predicted / 2, predicted * 2);
    }
}
