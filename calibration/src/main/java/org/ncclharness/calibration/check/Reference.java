package org.ncclharness.calibration.check;

import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * What a run is compared with: a baseline's busbw per size, or a calibrated model's prediction at the run's
 * sizes (labelled as a prediction in every report).
 *
 * @param label     one line naming the baseline or the model
 * @param predicted true when the values come from a model, not from a measurement
 * @param busBwGBps busbw per size, bytes → GB/s
 */
public record Reference(String label, boolean predicted, NavigableMap<Long, Double> busBwGBps) {

    public Reference {
        busBwGBps = Collections.unmodifiableNavigableMap(new TreeMap<>(busBwGBps));
    }

    public static Reference baseline(String label, Sweep baseline) {
        NavigableMap<Long, Double> m = new TreeMap<>();
        for (Measurement r : baseline.rows()) {
            Double b = SizeBusBw.of(r);
            if (b != null) {
                m.put(r.sizeBytes(), b);
            }
        }
        return new Reference(label, false, m);
    }

    /**
     * A model's prediction at the run's sizes: busbw = S / T / 1e3 × busFactor(N), nccl-tests' own definition
     * applied to the predicted time T (µs).
     */
    public static Reference model(String label, Sweep run, Collective collective, int ranks,
                                  DoubleUnaryOperator timeUsOfBytes) {
        NavigableMap<Long, Double> m = new TreeMap<>();
        for (Measurement r : run.rows()) {
            double t = timeUsOfBytes.applyAsDouble(r.sizeBytes());
            if (t > 0 && Double.isFinite(t)) {
                m.put(r.sizeBytes(), r.sizeBytes() / (t * 1e3) * collective.busFactor(ranks));
            }
        }
        return new Reference(label, true, m);
    }
}
