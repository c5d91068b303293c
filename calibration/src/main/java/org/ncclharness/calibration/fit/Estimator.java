package org.ncclharness.calibration.fit;

import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.model.CostModel;

/**
 * A way of choosing θ for a {@link CostModel} from data: what is fixed from hardware facts, what is estimated
 * and how. Leave-one-out scoring re-runs {@link #estimate} on every subset, so everything it takes from the data
 * (a fitted latency, a peak-based utilisation) is re-estimated without the held-out point.
 */
public interface Estimator {

    /** Short name, the key of the model in a report ({@code B}, {@code naive}). */
    String name();

    /** One line: how α and β are chosen. */
    String description();

    CostModel model();

    /**
     * The quantities estimated from the data, one per free parameter (the k of docs/calibration.md's 3k + 3, which
     * decides whether leave-one-out is scored): fitted parameters and data-derived ones such as u_r.
     */
    List<String> freeParameters();

    /** θ estimated from these points. */
    double[] estimate(FitPoints points);

    /**
     * Each point's time as predicted by the estimate without it (leave-one-out), where the estimator has that
     * without refitting ({@link SingleTierEstimator}: the hat-matrix identity); empty where {@link Fitter} must
     * refit.
     */
    default Optional<double[]> heldOutUs(FitPoints points) {
        return Optional.empty();
    }
}
