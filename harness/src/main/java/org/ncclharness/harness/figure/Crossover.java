package org.ncclharness.harness.figure;

import java.util.Optional;
import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.analysis.solvers.BrentSolver;

/**
 * Where two predicted curves swap order (Ring vs Tree: Tree's latency grows with log N, Ring's with N, so Tree
 * wins small messages and Ring large ones on most systems): the sampled sizes find the first pair between which
 * the faster model changes, and Commons Math's Brent solver the size between them where both take as long, to the
 * byte, so the figure names the crossover {@code predict} prints.
 *
 * @param bytes        the size at which both models take as long
 * @param fasterBefore the model faster below the crossover
 * @param fasterAfter  the model faster from the crossover on
 */
record Crossover(long bytes, String fasterBefore, String fasterAfter) {

    /** The solver works on log2 of the size: to a billionth of an octave, under a byte below 1 GiB. */
    private static final double LOG2_ACCURACY = 1e-9;
    private static final int MAX_EVALUATIONS = 200;

    static Optional<Crossover> find(ModelCurve a, ModelCurve b, long[] sizes) {
        int initial = 0;
        long before = -1;
        for (long s : sizes) {
            double ta = a.timeUs().applyAsDouble(s);
            double tb = b.timeUs().applyAsDouble(s);
            if (!Double.isFinite(ta) || !Double.isFinite(tb)) {
                continue;
            }
            int order = Double.compare(ta, tb);
            if (order == 0) {
                continue;
            }
            if (initial == 0) {
                initial = order;
            } else if (order != initial) {
                long at = equalTime(a, b, before, s);
                return Optional.of(order > 0
                        ? new Crossover(at, a.name(), b.name()) : new Crossover(at, b.name(), a.name()));
            }
            before = s;
        }
        return Optional.empty();
    }

    /** The crossover a model computed at {@code bytes}: the faster curve just below it is the one faster before. */
    static Crossover at(ModelCurve a, ModelCurve b, double bytes) {
        long below = Math.max(1, Math.round(bytes * 0.9));
        boolean aFirst = a.timeUs().applyAsDouble(below) < b.timeUs().applyAsDouble(below);
        long at = Math.round(bytes);
        return aFirst ? new Crossover(at, a.name(), b.name()) : new Crossover(at, b.name(), a.name());
    }

    /** The size in (lo, hi] where the two take equally long; the models differ in sign at the two ends. */
    private static long equalTime(ModelCurve a, ModelCurve b, long lo, long hi) {
        UnivariateFunction difference = log2 -> {
            long bytes = Math.round(Math.pow(2, log2));
            return a.timeUs().applyAsDouble(bytes) - b.timeUs().applyAsDouble(bytes);
        };
        double root = new BrentSolver(LOG2_ACCURACY).solve(MAX_EVALUATIONS, difference, log2(lo), log2(hi));
        return Math.round(Math.pow(2, root));
    }

    private static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }
}
