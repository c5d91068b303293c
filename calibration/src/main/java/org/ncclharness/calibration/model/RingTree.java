package org.ncclharness.calibration.model;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.ncclharness.calibration.measure.Collective;

/**
 * Ring against Tree AllReduce in their ideal forms (docs/calibration.md): T_ring = 2(N−1)·(D/(N·B) + L) and
 * T_tree = 2D/B_root + 2h·L with h = ⌈log_k N⌉ (a k-ary tree, reduce up then broadcast down). Ring's latency
 * grows linearly in N and Tree's logarithmically, while Tree's bandwidth term is bounded by the root's links, so
 * Tree wins below a crossover size and Ring above it.
 *
 * @param ranks     N
 * @param arity     k, the tree's fan-out (2 for NCCL's binary trees)
 * @param bwGBps    B, the per-rank ring bandwidth (β_eff of a calibration), GB/s
 * @param rootGBps  B_root, the bandwidth of the tree root's links, GB/s
 * @param stepUs    L, the latency of one ring step, µs
 */
public record RingTree(int ranks, int arity, double bwGBps, double rootGBps, double stepUs) {

    private static final double BYTES_PER_US_PER_GBPS = 1e3;

    public RingTree {
        if (ranks < 2 || arity < 2 || bwGBps <= 0 || rootGBps <= 0 || stepUs < 0) {
            throw new IllegalArgumentException("need N >= 2, k >= 2, B > 0, B_root > 0, L >= 0");
        }
    }

    /**
     * Tree beside a calibrated AllReduce ring, with nothing more known: a binary tree whose root links are as fast
     * as the ring's (B_root = B) and whose steps take the ring's per-step latency L = α/(2(N−1)).
     *
     * @param ringAlphaUs the ring's whole latency term α
     * @param bwGBps      the ring's β_eff
     */
    public static RingTree besideRing(int ranks, double ringAlphaUs, double bwGBps) {
        return new RingTree(ranks, 2, bwGBps, bwGBps, ringAlphaUs / RingSteps.of(Collective.ALL_REDUCE, ranks));
    }

    /** h = ⌈log_k N⌉, computed in integers so that N = k^j gives exactly j. */
    public int treeDepth() {
        int h = 0;
        for (long reach = 1; reach < ranks; reach *= arity) {
            h++;
        }
        return h;
    }

    public double ringUs(double bytes) {
        return 2.0 * (ranks - 1) * (bytes / (ranks * bwGBps * BYTES_PER_US_PER_GBPS) + stepUs);
    }

    public double ringLatencyUs() {
        return 2.0 * (ranks - 1) * stepUs;
    }

    public double treeUs(double bytes) {
        return 2 * bytes / (rootGBps * BYTES_PER_US_PER_GBPS) + treeLatencyUs();
    }

    public double treeLatencyUs() {
        return 2.0 * treeDepth() * stepUs;
    }

    /**
     * The size where Tree and Ring take equally long: Tree is faster below it, Ring above. Empty when one of them
     * wins at every size (Tree's root as fast as the ring, or Ring's latency no larger than Tree's).
     */
    public OptionalDouble crossoverBytes() {
        double latencyGain = ringLatencyUs() - treeLatencyUs();
        double bandwidthLoss = 2 / (rootGBps * BYTES_PER_US_PER_GBPS)
                - 2.0 * (ranks - 1) / (ranks * bwGBps * BYTES_PER_US_PER_GBPS);
        if (latencyGain <= 0 || bandwidthLoss <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(latencyGain / bandwidthLoss);
    }

    /** Which algorithm this model says is faster at one size (ties: Ring, NCCL's default). */
    public String faster(double bytes) {
        return treeUs(bytes) < ringUs(bytes) ? "Tree" : "Ring";
    }

    /**
     * Where measured Ring and Tree times of one sweep change places: for each pair of adjacent sizes where the
     * faster algorithm changes, the size where the two lines cross, interpolated in log-size. Sizes ascending.
     */
    /**
     * Where two algorithms' times, each a function of the size (NaN where it has no time there), change places
     * from 1 B to 1 TiB: {@link #measuredCrossovers} of a power-of-two scan; empty where either has no time.
     */
    public static List<Double> scannedCrossovers(java.util.function.DoubleUnaryOperator ringUs,
                                                 java.util.function.DoubleUnaryOperator treeUs) {
        int k = SCAN_POWERS + 1;
        double[] bytes = new double[k];
        double[] ring = new double[k];
        double[] tree = new double[k];
        for (int i = 0; i < k; i++) {
            bytes[i] = Math.pow(2, i);
            ring[i] = ringUs.applyAsDouble(bytes[i]);
            tree[i] = treeUs.applyAsDouble(bytes[i]);
            if (Double.isNaN(ring[i]) || Double.isNaN(tree[i])) {
                return List.of();
            }
        }
        return measuredCrossovers(bytes, ring, tree);
    }

    /** The scan of {@link #scannedCrossovers}: 1 B to 2^40 B (1 TiB), every power of two. */
    private static final int SCAN_POWERS = 40;

    public static List<Double> measuredCrossovers(double[] bytes, double[] ringUs, double[] treeUs) {
        List<Double> out = new ArrayList<>();
        for (int i = 1; i < bytes.length; i++) {
            double d0 = Math.log(treeUs[i - 1] / ringUs[i - 1]);
            double d1 = Math.log(treeUs[i] / ringUs[i]);
            if (d0 == 0) {
                out.add(bytes[i - 1]);
            } else if (d0 * d1 < 0) {
                double w = d0 / (d0 - d1);
                out.add(Math.exp(Math.log(bytes[i - 1]) + w * (Math.log(bytes[i]) - Math.log(bytes[i - 1]))));
            }
        }
        return out;
    }
}
