package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Measurement;

/**
 * Sizes that take longer than a larger size does: a stretch of at least {@value #MIN_SIZES} consecutive sizes,
 * each more than {@value #FACTOR}x the time of the first larger size after them, or of two where one of them
 * takes {@value #STRONG_FACTOR}x that time. A larger message never needs
 * less time on one path, so those sizes ran a slower one than the sizes above (a protocol or algorithm the tuner
 * picked wrongly for this machine, a path across sockets that small messages pay for). One slow size is a glitch,
 * found elsewhere; a stretch of them is how the machine behaves at those sizes.
 */
final class SlowerThanLarger {

    /** Above the glitch detector's 1.5x: a size this much slower than a larger one is not noise. */
    static final double FACTOR = 1.5;
    static final int MIN_SIZES = 3;
    /**
     * Two sizes suffice where the slower of them takes this many times the larger size's time: a 16-GPU RoCE run
     * took up to 1288.7 us at 512 KiB-1 MiB against 396.2 us at 2 MiB, while the first sizes of a sweep, slow
     * from warm-up on the bundled 1024- and 2048-GPU Alps runs, stay below 2x (8-16 B: 217.5 us against 113.5).
     */
    static final double STRONG_FACTOR = 3;

    private SlowerThanLarger() {
    }

    /**
     * @param from   the first size of the stretch
     * @param to     its last
     * @param slowUs the longest time in it
     * @param faster the larger size after it that all of it is slower than
     * @param fastUs that size's time
     */
    record Stretch(long from, long to, double slowUs, long faster, double fastUs) {
    }

    /** Every such stretch in size order, from rows in ascending size (those without a time are skipped). */
    static List<Stretch> find(List<Measurement> rows) {
        List<Measurement> timed = rows.stream().filter(r -> SizeBusBw.timeOf(r) != null && r.sizeBytes() > 0).toList();
        List<Stretch> out = new ArrayList<>();
        int i = 0;
        while (i < timed.size() - 1) {
            // the stretch ending at the size before j, for the first j that is FACTOR faster than its predecessor
            int j = i + 1;
            if (time(timed, j) * FACTOR >= time(timed, i)) {
                i++;
                continue;
            }
            double fast = time(timed, j);
            int start = i;
            double slow = time(timed, i);
            while (start > 0 && time(timed, start - 1) > FACTOR * fast) {
                start--;
                slow = Math.max(slow, time(timed, start));
            }
            int sizes = i - start + 1;
            if (sizes >= MIN_SIZES || sizes == MIN_SIZES - 1 && slow >= STRONG_FACTOR * fast) {
                out.add(new Stretch(timed.get(start).sizeBytes(), timed.get(i).sizeBytes(), slow,
                        timed.get(j).sizeBytes(), fast));
            }
            i = j;
        }
        return out;
    }

    private static double time(List<Measurement> rows, int i) {
        return SizeBusBw.timeOf(rows.get(i));
    }
}
