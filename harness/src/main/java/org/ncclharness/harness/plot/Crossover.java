package org.ncclharness.harness.plot;

import java.util.Optional;

/**
 * Where two predicted curves swap order: the first sampled size at which the model that was faster at the
 * smallest size is no longer faster (Ring vs Tree: Tree's latency grows with log N, Ring's with N, so Tree wins
 * small messages and Ring large ones on most systems).
 *
 * @param bytes      the first size at which {@code fasterAfter} is faster
 * @param fasterBefore the model faster below the crossover
 * @param fasterAfter  the model faster from the crossover on
 */
record Crossover(long bytes, String fasterBefore, String fasterAfter) {

    static Optional<Crossover> find(ModelCurve a, ModelCurve b, long[] sizes) {
        int initial = 0;
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
                return Optional.of(order > 0
                        ? new Crossover(s, a.name(), b.name()) : new Crossover(s, b.name(), a.name()));
            }
        }
        return Optional.empty();
    }
}
