package org.ncclharness.calibration.fit;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;

/**
 * Measurement glitches: points no smooth cost model should follow. Two kinds, both judged on time, which grows
 * smoothly with the size whatever protocol or algorithm runs:
 * <ul>
 *   <li>{@link Kind#PLACEMENTS_DISAGREE}: the out-of-place and in-place times of one size differ by more than
 *       {@value #PLACEMENT_FACTOR}× (the same work, timed twice);</li>
 *   <li>{@link Kind#ABOVE_NEIGHBOURS}: the time stands above the log-log line through its two neighbours by more
 *       than a stated factor, while the neighbours agree (the larger is not faster than the smaller). The line in
 *       log-log space is the geometric mean of the neighbours on an even geometric grid, and it stays right for
 *       {@code -f 4} sweeps and uneven grids, where an arithmetic mean of neighbours' busbw does not.</li>
 * </ul>
 * {@code check}'s dip rule is this detector with the factor 100/dip %.
 */
public final class Glitches {

    /** Out-of-place and in-place times further apart than this are not the same measurement. */
    public static final double PLACEMENT_FACTOR = 2;

    public enum Kind { PLACEMENTS_DISAGREE, ABOVE_NEIGHBOURS }

    /**
     * One glitch.
     *
     * @param bytes      the size
     * @param timeUs     its time
     * @param expectedUs what its neighbours imply (ABOVE_NEIGHBOURS), or the other placement's time
     */
    public record Glitch(double bytes, Kind kind, double timeUs, double expectedUs) {

        /** How far above what was expected: time / expected. */
        public double factor() {
            return timeUs / expectedUs;
        }
    }

    private Glitches() {
    }

    /** The time the two neighbours of point i imply: their log-log line read at size i. */
    public static double expectedFromNeighbours(double[] bytes, double[] timeUs, int i) {
        double w = (Math.log(bytes[i]) - Math.log(bytes[i - 1])) / (Math.log(bytes[i + 1]) - Math.log(bytes[i - 1]));
        return Math.exp(Math.log(timeUs[i - 1]) + w * (Math.log(timeUs[i + 1]) - Math.log(timeUs[i - 1])));
    }

    /** Interior points (ascending size) above their neighbours' line by more than {@code factor}. */
    public static List<Glitch> aboveNeighbours(double[] bytes, double[] timeUs, double factor) {
        if (!(factor > 1)) {
            throw new IllegalArgumentException("a glitch factor must be above 1, got " + factor);
        }
        List<Glitch> out = new ArrayList<>();
        for (int i = 1; i + 1 < bytes.length; i++) {
            if (!(timeUs[i - 1] > 0 && timeUs[i] > 0 && timeUs[i + 1] > 0) || timeUs[i + 1] < timeUs[i - 1]) {
                continue;
            }
            double expected = expectedFromNeighbours(bytes, timeUs, i);
            if (timeUs[i] > factor * expected) {
                out.add(new Glitch(bytes[i], Kind.ABOVE_NEIGHBOURS, timeUs[i], expected));
            }
        }
        return out;
    }

    /** Sizes whose two placements were both timed and differ by more than {@value #PLACEMENT_FACTOR}×. */
    public static List<Glitch> placementsDisagree(List<Measurement> rows) {
        List<Glitch> out = new ArrayList<>();
        for (Measurement m : rows) {
            Half o = m.outOfPlace();
            Half p = m.inPlace();
            if (o.timeUs() == null || p.timeUs() == null || !(o.timeUs() > 0 && p.timeUs() > 0)) {
                continue;
            }
            double slow = Math.max(o.timeUs(), p.timeUs());
            double fast = Math.min(o.timeUs(), p.timeUs());
            if (slow > PLACEMENT_FACTOR * fast) {
                out.add(new Glitch(m.sizeBytes(), Kind.PLACEMENTS_DISAGREE, slow, fast));
            }
        }
        return out;
    }
}
