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
     * T at every size of {@code bytes}, into {@code out}: what a fit evaluates at each θ it tries. The same bits as
     * {@link #timeUs} size by size; a model overrides it to work out once what θ alone decides (the envelopes:
     * each candidate's latency and bandwidth divisor), as the fits evaluate every size at hundreds of thousands of θ.
     */
    default void timesUs(double[] bytes, double[] theta, double[] out) {
        for (int i = 0; i < bytes.length; i++) {
            out[i] = timeUs(bytes[i], theta);
        }
    }

    /**
     * ∂T/∂θ at every size of {@code bytes} into {@code out}, row i at bytes[i]: {@link #gradient}'s bits, as
     * {@link #timesUs}. {@code out} has a row of θ's length per size; the envelopes write into those rows (a fit asks
     * at every step it accepts, and a fresh matrix each time was most of what the fits allocated), the default
     * replaces them with {@link #gradient}'s.
     */
    default void gradients(double[] bytes, double[] theta, double[][] out) {
        for (int i = 0; i < bytes.length; i++) {
            out[i] = gradient(bytes[i], theta);
        }
    }

    /**
     * {@link #timesUs} that also writes into {@code pieces} which piece of a piecewise model each size's time came
     * from (the envelopes: the candidate that size takes), for {@link #gradients(double[], double[], double[][], int[])}
     * at the same θ. A fit asks for the Jacobian at a θ whose times it has: the envelope need not find each size's
     * candidate again. A model of one piece writes nothing there.
     */
    default void timesUs(double[] bytes, double[] theta, double[] out, int[] pieces) {
        timesUs(bytes, theta, out);
    }

    /**
     * {@link #gradients(double[], double[], double[][])} with {@code pieces} as
     * {@link #timesUs(double[], double[], double[], int[])} wrote them at this same θ: the same bits, each size's
     * candidate taken from there instead of found again.
     */
    default void gradients(double[] bytes, double[] theta, double[][] out, int[] pieces) {
        gradients(bytes, theta, out);
    }

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
