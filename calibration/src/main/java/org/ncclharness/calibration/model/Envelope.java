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

    /**
     * Writes the gradient of candidate {@code c} at this size over all of {@code g} (the envelope is piecewise
     * linear in its latencies); in place, so a fit's evaluations reuse their rows.
     */
    void gradient(int c, double bytes, double[] theta, double[] g);

    /** The gradient of the chosen candidate at this size, as {@link #gradient(int, double, double[], double[])}. */
    default void gradient(double bytes, double[] theta, double[] g) {
        gradient(chosen(bytes), bytes, theta, g);
    }

    default double timeUs(double bytes) {
        return time(chosen(bytes), bytes);
    }

    default void timesUs(double[] bytes, double[] out) {
        for (int i = 0; i < bytes.length; i++) {
            out[i] = time(chosen(bytes[i]), bytes[i]);
        }
    }

    /** {@link #timesUs(double[], double[])}, each size's candidate also written into {@code pieces}. */
    default void timesUs(double[] bytes, double[] out, int[] pieces) {
        for (int i = 0; i < bytes.length; i++) {
            int c = chosen(bytes[i]);
            pieces[i] = c;
            out[i] = time(c, bytes[i]);
        }
    }

    default void gradients(double[] bytes, double[] theta, double[][] out) {
        for (int i = 0; i < bytes.length; i++) {
            gradient(bytes[i], theta, out[i]);
        }
    }

    /** The gradients of the candidates {@link #timesUs(double[], double[], int[])} wrote, at the same θ. */
    default void gradients(double[] bytes, double[] theta, double[][] out, int[] pieces) {
        for (int i = 0; i < bytes.length; i++) {
            gradient(pieces[i], bytes[i], theta, out[i]);
        }
    }
}
