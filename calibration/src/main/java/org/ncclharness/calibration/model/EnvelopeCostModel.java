package org.ncclharness.calibration.model;

/**
 * A cost model whose time is an {@link Envelope} of candidates at each θ: its times and gradients, one size or a
 * batch, are the envelope's, so each envelope model says only how it builds the envelope at θ.
 */
sealed interface EnvelopeCostModel extends CostModel permits ProtocolEnvelopeModel, AlgorithmEnvelopeModel {

    /** The envelope of this model's candidates at {@code theta}. */
    Envelope envelopeAt(double[] theta);

    @Override
    default double timeUs(double bytes, double[] theta) {
        return envelopeAt(theta).timeUs(bytes);
    }

    @Override
    default void timesUs(double[] bytes, double[] theta, double[] out) {
        envelopeAt(theta).timesUs(bytes, out);
    }

    /** The gradient of the candidate the envelope takes at {@code bytes} (piecewise linear in the latencies). */
    @Override
    default double[] gradient(double bytes, double[] theta) {
        double[] g = new double[theta.length];
        envelopeAt(theta).gradient(bytes, theta, g);
        return g;
    }

    @Override
    default void gradients(double[] bytes, double[] theta, double[][] out) {
        envelopeAt(theta).gradients(bytes, theta, out);
    }

    @Override
    default void timesUs(double[] bytes, double[] theta, double[] out, int[] pieces) {
        envelopeAt(theta).timesUs(bytes, out, pieces);
    }

    @Override
    default void gradients(double[] bytes, double[] theta, double[][] out, int[] pieces) {
        envelopeAt(theta).gradients(bytes, theta, out, pieces);
    }
}
