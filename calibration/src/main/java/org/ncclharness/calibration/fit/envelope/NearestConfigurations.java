package org.ncclharness.calibration.fit.envelope;

import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Which of a group's smaller runs the cross-scale {@code algorithms-nearest} fit uses: the fewest, nearest the
 * predicted configuration, that give the fit its 2k points.
 */
public final class NearestConfigurations {

    /**
     * The model's name: in docs/model-accuracy.md's cross-scale rows, and in a joint calibration, where predict uses
     * it above the largest run.
     */
    public static final String MODEL = "algorithms-nearest";

    private NearestConfigurations() {
    }

    /**
     * @param runs   the runs a joint fit would use, smallest configuration first
     * @param points a run's point count
     * @param k      the free parameters of a fit on these runs
     * @return the largest run alone where it has 2k points, else it with the next smaller ones until they have;
     *         all of {@code runs} where even they fall short (the fit then says why it is not scored)
     */
    public static List<Integer> of(List<Integer> runs, ToIntFunction<Integer> points, ToIntFunction<List<Integer>> k) {
        for (int from = runs.size() - 1; from >= 0; from--) {
            List<Integer> tail = runs.subList(from, runs.size());
            if (tail.stream().mapToInt(points).sum() >= 2 * k.applyAsInt(tail)) {
                return List.copyOf(tail);
            }
        }
        return List.copyOf(runs);
    }
}
