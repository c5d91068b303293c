package org.ncclharness.calibration.fit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The points a fit uses: one half of a sweep (out-of-place, or in-place where that is all the source has:
 * docs/calibration.md), sorted by size, as flat arrays. Where a row has a bus bandwidth but no time (busbw-only summary
 * tables) the time is derived from busbw, size and N (t = f·M/busbw) and {@link #timeDerived} says so.
 *
 * @param bytes       message sizes (the nccl-tests {@code size} column), ascending
 * @param timeUs      time per iteration, µs
 * @param busBwGBps   bus bandwidth as printed, or computed from the time where the source prints none
 * @param placement   which half the points come from
 * @param timeDerived true when at least one time was derived from busbw
 * @param notes       what the extraction did that a user should know
 */
public record FitPoints(double[] bytes, double[] timeUs, double[] busBwGBps, Placement placement,
                        boolean timeDerived, List<Note> notes) {

    public FitPoints {
        if (bytes.length != timeUs.length || bytes.length != busBwGBps.length) {
            throw new IllegalArgumentException("bytes, times and bus bandwidths differ in length");
        }
        notes = List.copyOf(notes);
    }

    /** Extracts the points of a sweep with N ranks. */
    public static FitPoints from(Sweep sweep, int ranks) {
        Collective c = sweep.collective();
        Placement placement = usable(sweep.rows(), Placement.OUT_OF_PLACE) > 0 ? Placement.OUT_OF_PLACE
                : Placement.IN_PLACE;
        List<double[]> pts = new ArrayList<>();
        int derived = 0;
        int skipped = 0;
        for (Measurement m : sweep.rows()) {
            Half h = m.preferred(placement);
            double bytes = m.sizeBytes();
            if (bytes <= 0) {
                continue;
            }
            if (positive(h.timeUs())) {
                double bus = positive(h.busBwGBps()) ? h.busBwGBps() : c.busBwGBps(bytes, h.timeUs(), ranks);
                pts.add(new double[] {bytes, h.timeUs(), bus});
            } else if (positive(h.busBwGBps())) {
                pts.add(new double[] {bytes, c.timeUs(bytes, h.busBwGBps(), ranks), h.busBwGBps()});
                derived++;
            } else if (!h.isEmpty()) {
                skipped++;
            }
        }
        pts.sort(Comparator.comparingDouble(p -> p[0]));
        List<Note> notes = new ArrayList<>();
        notes.add(new Note(Note.Kind.FITTED_HALF, placement == Placement.IN_PLACE
                ? "fitted on the in-place half: the source has no out-of-place values"
                : "fitted on the out-of-place half"));
        if (derived > 0) {
            notes.add(new Note(Note.Kind.TIME_DERIVED, "time derived from busbw, size and N (t = f*M/busbw) for "
                    + derived + " of " + pts.size() + " points: the source prints no time"));
        }
        emptyRowsNote(sweep).ifPresent(notes::add);
        if (skipped > 0) {
            notes.add(Note.info(skipped + " rows skipped: time and busbw zero or absent (busbw printed as 0.00)"));
        }
        return new FitPoints(column(pts, 0), column(pts, 1), column(pts, 2), placement, derived > 0, notes);
    }

    /**
     * The rows of 0 bytes, which no fit takes: nccl-tests rounds a size to whole elements per rank, so the smallest
     * sizes of a collective that splits the buffer N ways print as 0 B, a launch with no data and no α-β point.
     */
    public static Optional<Note> emptyRowsNote(Sweep sweep) {
        long empty = sweep.rows().stream().filter(m -> m.sizeBytes() <= 0).count();
        return empty == 0 ? Optional.empty() : Optional.of(Note.info(empty + (empty == 1 ? " row" : " rows")
                + " of 0 bytes not fitted: no data moved (sizes below one element per rank round to 0)"));
    }

    private static int usable(List<Measurement> rows, Placement p) {
        int n = 0;
        for (Measurement m : rows) {
            Half h = m.preferred(p);
            if (positive(h.timeUs()) || positive(h.busBwGBps())) {
                n++;
            }
        }
        return n;
    }

    private static boolean positive(Double v) {
        return v != null && v > 0 && Double.isFinite(v);
    }

    private static double[] column(List<double[]> pts, int j) {
        double[] out = new double[pts.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = pts.get(i)[j];
        }
        return out;
    }

    public int size() {
        return bytes.length;
    }

    /** Index of the largest size (the last: points are sorted). */
    public int largest() {
        return bytes.length - 1;
    }

    /** The same points without point {@code i} (leave-one-out). */
    public FitPoints without(int i) {
        return new FitPoints(drop(bytes, i), drop(timeUs, i), drop(busBwGBps, i), placement, timeDerived, notes);
    }

    /** The points whose index passes {@code keep} (a cross-validation fold's training set). */
    public FitPoints keep(java.util.function.IntPredicate keep) {
        int[] idx = java.util.stream.IntStream.range(0, bytes.length).filter(keep).toArray();
        return new FitPoints(pick(bytes, idx), pick(timeUs, idx), pick(busBwGBps, idx), placement, timeDerived, notes);
    }

    private static double[] pick(double[] a, int[] idx) {
        double[] out = new double[idx.length];
        for (int j = 0; j < idx.length; j++) {
            out[j] = a[idx[j]];
        }
        return out;
    }

    private static double[] drop(double[] a, int i) {
        double[] out = new double[a.length - 1];
        System.arraycopy(a, 0, out, 0, i);
        System.arraycopy(a, i + 1, out, i, a.length - i - 1);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FitPoints p && Arrays.equals(bytes, p.bytes) && Arrays.equals(timeUs, p.timeUs)
                && Arrays.equals(busBwGBps, p.busBwGBps) && placement == p.placement
                && timeDerived == p.timeDerived && notes.equals(p.notes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes) * 31 + Arrays.hashCode(timeUs);
    }

    @Override
    public String toString() {
        return "FitPoints[" + size() + " points, " + placement.label() + "]";
    }
}
