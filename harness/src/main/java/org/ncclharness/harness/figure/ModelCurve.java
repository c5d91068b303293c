package org.ncclharness.harness.figure;

import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.ncclharness.calibration.fit.envelope.AlgorithmChoices;

/**
 * The seam between cost models and the chart: one model's predicted time per iteration against message size.
 * A fitted model (single-tier α-β, protocol envelope, NCCL tuner model, two-tier) or a configured prediction
 * (Ring, Tree) hands the chart one of these; the chart turns time into bus bandwidth with the series' collective
 * and N, samples it across the size range, and computes residuals against the measured times. The chart never
 * knows the model's formula or parameters.
 *
 * @param name   what the legend calls it: {@code single-tier α-β}, {@code two-tier}, {@code Ring}
 * @param timeUs predicted time per iteration in microseconds for a message of the given size in bytes (the
 *               nccl-tests {@code size} column)
 * @param switches where the model changes protocol or algorithm within the run's sizes, as it computes them (an
 *                 envelope's picks); empty for a model that picks nothing. The chart marks each one.
 */
public record ModelCurve(String name, LongToDoubleFunction timeUs, List<AlgorithmChoices.Switch> switches) {

    public ModelCurve {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a model curve needs a name for the legend");
        }
        if (timeUs == null) {
            throw new IllegalArgumentException("model curve " + name + " has no time function");
        }
        switches = List.copyOf(switches);
    }

    /** A curve whose model picks no protocol or algorithm. */
    public ModelCurve(String name, LongToDoubleFunction timeUs) {
        this(name, timeUs, List.of());
    }
}
