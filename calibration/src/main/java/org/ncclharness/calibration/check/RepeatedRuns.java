package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.measure.Measurement;

/**
 * A sweep repeated {@code -N} times, as bring-up runs every step: per size the run of median time is kept (a
 * measured row, never an average of rows, so its busbw and #wrong are ones a run gave) and the spread of the
 * runs is stated. The median resists the one run in three that a noisy neighbour slowed.
 *
 * @param median  one row per size (and type, op, root), in the order the sizes first appear
 * @param fastest the fastest run's row of each size, in the same order: what a run can reach when nothing disturbs
 *                it (noise only ever slows a run down)
 * @param spread  one line per row of {@code median}
 */
public record RepeatedRuns(List<Measurement> median, List<Measurement> fastest, List<SizeSpread> spread) {

    /**
     * @param runs      how many runs had this size
     * @param spreadPct (slowest − fastest) / median time × 100, out of place; 0 for one run
     */
    public record SizeSpread(long sizeBytes, int runs, double medianTimeUs, double spreadPct) { }

    public RepeatedRuns {
        median = List.copyOf(median);
        fastest = List.copyOf(fastest);
        spread = List.copyOf(spread);
    }

    /** Groups the rows by size, type, op and root; rows without an out-of-place time are kept as they come. */
    public static RepeatedRuns of(List<Measurement> rows) {
        Map<String, List<Measurement>> bySize = new LinkedHashMap<>();
        for (Measurement r : rows) {
            bySize.computeIfAbsent(r.sizeBytes() + "/" + r.type() + "/" + r.redop() + "/" + r.root(),
                    k -> new ArrayList<>()).add(r);
        }
        List<Measurement> median = new ArrayList<>();
        List<Measurement> fastest = new ArrayList<>();
        List<SizeSpread> spread = new ArrayList<>();
        for (List<Measurement> same : bySize.values()) {
            List<Measurement> timed = same.stream().filter(r -> r.outOfPlace().timeUs() != null)
                    .sorted(Comparator.comparingDouble(r -> r.outOfPlace().timeUs())).toList();
            if (timed.isEmpty()) {
                median.add(same.get(0));
                fastest.add(same.get(0));
                spread.add(new SizeSpread(same.get(0).sizeBytes(), same.size(), Double.NaN, Double.NaN));
                continue;
            }
            Measurement mid = timed.get((timed.size() - 1) / 2);
            double t = mid.outOfPlace().timeUs();
            double range = timed.get(timed.size() - 1).outOfPlace().timeUs() - timed.get(0).outOfPlace().timeUs();
            median.add(mid);
            fastest.add(timed.get(0));
            spread.add(new SizeSpread(mid.sizeBytes(), timed.size(), t, t > 0 ? 100 * range / t : 0));
        }
        return new RepeatedRuns(median, fastest, spread);
    }

    /** The spread at the largest size: the bandwidth-bound end, where a bring-up's verdict is decided. */
    public SizeSpread atLargest() {
        return spread.stream().max(Comparator.comparingLong(SizeSpread::sizeBytes)).orElseThrow();
    }
}
