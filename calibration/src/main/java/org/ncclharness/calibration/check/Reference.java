package org.ncclharness.calibration.check;

import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * What a run is compared with, size by size: a baseline run, a calibrated model's prediction at the run's sizes
 * (labelled as a prediction in every report), or the expected curve of bundled runs of the same hardware.
 *
 * @param label     one line naming the baseline, the model or the bundled run
 * @param role      its kind, which every output names beside the word "reference"
 * @param source    where the values came from: {@link SourceKind#PREDICTED} for a model's (and a table a model
 *                  computed), else the kind of the run measured (a replay's are another machine's)
 * @param busBwGBps busbw per size, bytes → GB/s
 * @param timeUs    time per size, bytes → µs (the same placement as the busbw); sizes with no time are absent
 * @param notes     what the first lines of the report must say (a scale the model was moved to, what differs)
 */
public record Reference(String label, ReferenceKind role, SourceKind source, NavigableMap<Long, Double> busBwGBps,
                        NavigableMap<Long, Double> timeUs, List<String> notes) {

    public Reference {
        busBwGBps = Collections.unmodifiableNavigableMap(new TreeMap<>(busBwGBps));
        timeUs = Collections.unmodifiableNavigableMap(new TreeMap<>(timeUs));
        notes = List.copyOf(notes);
    }

    /** True when the values come from a model, not from a measurement. */
    public boolean predicted() {
        return source == SourceKind.PREDICTED;
    }

    /**
     * True for a baseline whose values were not measured on a system: a replay, a table a model computed, or a run
     * timed by a test clock. A model's prediction and an expected curve are models or bundled runs by design, and say
     * so in their label.
     */
    public boolean notMeasured() {
        return role == ReferenceKind.BASELINE && (source == SourceKind.REPLAY || source == SourceKind.PREDICTED
                || source == SourceKind.TEST_CLOCK);
    }

    /** A measured run's busbw and time per size. */
    public static Reference baseline(String label, Sweep baseline) {
        return measured(label, ReferenceKind.BASELINE, baseline);
    }

    /** A measured run in the role {@code role} (a bundled run of the same hardware: {@link ReferenceKind#OTHER_CLUSTER}). */
    public static Reference measured(String label, ReferenceKind role, Sweep sweep) {
        NavigableMap<Long, Double> bus = new TreeMap<>();
        NavigableMap<Long, Double> time = new TreeMap<>();
        for (Measurement r : sweep.rows()) {
            Double b = SizeBusBw.of(r);
            if (b != null) {
                bus.put(r.sizeBytes(), b);
                Double t = SizeBusBw.timeOf(r);
                if (t != null && t > 0) {
                    time.put(r.sizeBytes(), t);
                }
            }
        }
        return new Reference(label, role, sweep.provenance() == null ? null : sweep.provenance().kind(), bus,
                time, List.of());
    }

    /**
     * A model's prediction at the run's sizes: busbw = S / T / 1e3 × busFactor(N), nccl-tests' own definition
     * applied to the predicted time T (µs).
     */
    public static Reference model(String label, Sweep run, Collective collective, int ranks,
                                  DoubleUnaryOperator timeUsOfBytes) {
        NavigableMap<Long, Double> bus = new TreeMap<>();
        NavigableMap<Long, Double> time = new TreeMap<>();
        for (Measurement r : run.rows()) {
            double t = timeUsOfBytes.applyAsDouble(r.sizeBytes());
            if (t > 0 && Double.isFinite(t)) {
                bus.put(r.sizeBytes(), collective.busBwGBps(r.sizeBytes(), t, ranks));
                time.put(r.sizeBytes(), t);
            }
        }
        return new Reference(label, ReferenceKind.CALIBRATION, SourceKind.PREDICTED, bus, time, List.of());
    }

    /**
     * This reference read at sizes it did not measure, each strictly between two of its own: time and busbw
     * interpolated in log-size (a -f 3 baseline against a -f 2 run share no size); sizes outside its range are left
     * out, never extrapolated. Said in the notes.
     */
    public Reference interpolatedAt(List<Long> sizes) {
        NavigableMap<Long, Double> bus = new TreeMap<>();
        NavigableMap<Long, Double> time = new TreeMap<>();
        for (long s : sizes) {
            between(busBwGBps, s).ifPresent(v -> bus.put(s, v));
            between(timeUs, s).ifPresent(v -> time.put(s, v));
        }
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(label + " measured none of the run's sizes: its busbw and time are read between its neighbouring"
                + " sizes (interpolated in log-size), not measured there");
        return new Reference(label, role, source, bus, time, more);
    }

    private static java.util.OptionalDouble between(NavigableMap<Long, Double> m, long size) {
        var lo = m.lowerEntry(size);
        var hi = m.higherEntry(size);
        if (lo == null || hi == null) {
            return java.util.OptionalDouble.empty();
        }
        double w = Math.log((double) size / lo.getKey()) / Math.log((double) hi.getKey() / lo.getKey());
        return java.util.OptionalDouble.of(Math.exp(Math.log(lo.getValue()) + w * (Math.log(hi.getValue())
                - Math.log(lo.getValue()))));
    }

    public Reference as(ReferenceKind newRole, String newLabel) {
        return new Reference(newLabel, newRole, source, busBwGBps, timeUs, notes);
    }

    public Reference withNotes(List<String> more) {
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(more);
        return new Reference(label, role, source, busBwGBps, timeUs, all);
    }
}
