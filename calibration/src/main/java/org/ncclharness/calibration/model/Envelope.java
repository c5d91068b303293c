package org.ncclharness.calibration.model;

/**
 * An envelope model's terms at one θ: candidates (protocols, or algorithm x protocol pairs), each a line in the
 * size, and the fastest one chosen per size. The two envelope models work their terms out once per θ and walk the
 * sizes here, so a time and a gradient are computed the same way whichever model and whichever entry point asks.
 */
interface Envelope {

    /** The candidate the envelope takes at this size. */
    int chosen(double bytes);

    /** µs of candidate {@code c} at this size. */
    double time(int c, double bytes);

    /** The gradient of the chosen candidate at this size (the envelope is piecewise linear in its latencies). */
    double[] gradient(double bytes, double[] theta);

    default double timeUs(double bytes) {
        return time(chosen(bytes), bytes);
    }

    default void timesUs(double[] bytes, double[] out) {
        for (int i = 0; i < bytes.length; i++) {
            out[i] = time(chosen(bytes[i]), bytes[i]);
        }
    }

    default double[][] gradients(double[] bytes, double[] theta) {
        double[][] g = new double[bytes.length][];
        for (int i = 0; i < bytes.length; i++) {
            g[i] = gradient(bytes[i], theta);
        }
        return g;
    }
}
