package org.ncclharness.calibration.model;

import java.util.List;
import java.util.Map;

/**
 * A communication cost model: a time T(M; θ) in µs for a message of M bytes (the nccl-tests {@code size} column),
 * with named parameters θ. A model knows nothing of where its data came from or how θ is chosen; the fitting
 * lives in {@code org.ncclharness.calibration.fit}.
 *
 * <p>{@link #form()} and {@link #configuration()} describe the model completely, so that a calibration report can
 * rebuild it exactly ({@link CostModels#rebuild}).
 */
public interface CostModel {

    /** The model's form name, the key {@link CostModels#rebuild} dispatches on ({@code single-tier-ring}). */
    String form();

    /** The configuration the model is evaluated at (collective, ranks, hops, ...), as JSON-friendly values. */
    Map<String, Object> configuration();

    /** Names of θ's components in order, units in the names ({@code linkLatencyUs}, {@code betaEffGBps}). */
    List<String> parameterNames();

    /** Predicted time in µs. */
    double timeUs(double bytes, double[] theta);

    /**
     * ∂T/∂θ at one size, for the optimiser. The default is a central difference; models with a closed form
     * override it.
     */
    default double[] gradient(double bytes, double[] theta) {
        double[] g = new double[theta.length];
        for (int j = 0; j < theta.length; j++) {
            double h = Math.max(Math.abs(theta[j]), 1e-12) * 1e-6;
            double[] up = theta.clone();
            double[] down = theta.clone();
            up[j] += h;
            down[j] -= h;
            g[j] = (timeUs(bytes, up) - timeUs(bytes, down)) / (2 * h);
        }
        return g;
    }
}
