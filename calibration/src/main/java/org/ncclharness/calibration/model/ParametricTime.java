package org.ncclharness.calibration.model;

import java.util.List;

/**
 * A time T(M; θ) in µs for a message of M bytes (the nccl-tests {@code size} column), with named parameters θ:
 * what a fit moves θ of. Every {@link CostModel} is one; so is a reparametrisation a fit passes through on the
 * way (the algorithm envelope with its Tree bandwidth pinned), which is no model of its own.
 */
public interface ParametricTime {

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
