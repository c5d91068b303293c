package org.ncclharness.calibration.fit.envelope;

import java.util.List;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.ParametricTime;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.nccl.Algorithm;

/**
 * The algorithm envelope with Tree/Simple's bandwidth pinned to a sweep's end: its slope 2/(τ·β) per byte is held
 * at the end's f/β_end, so β = 2·β_end/(f·τ) follows τ and the optimiser moves every other parameter. For runs
 * whose largest sizes NCCL carries on Tree (many nodes), where pinning Ring's β would pin a line that carries
 * nothing. A reparametrisation, not another model: {@link #plain} gives θ in the envelope's own terms.
 */
final class TreeBandwidthPinned implements ParametricTime {

    private static final int BETA = ProtocolEnvelopeModel.BETA_INDEX;
    private static final int TAU = AlgorithmEnvelopeModel.TREE_FACTOR;

    private final AlgorithmEnvelopeModel model;
    /** 2·β_end/f: τ·β at the pinned slope. */
    private final double treeBusBwGBps;

    /** @param endBusBwGBps the end's bus bandwidth, at the collective's own bus factor f */
    TreeBandwidthPinned(AlgorithmEnvelopeModel model, double endBusBwGBps) {
        this.model = model;
        this.treeBusBwGBps = model.busCoefficient(Algorithm.TREE) * endBusBwGBps
                / model.collective().busFactor(model.config().ranks());
    }

    /** θ with β at the pinned value for its τ (θ's own β is ignored). */
    double[] plain(double[] theta) {
        double[] x = theta.clone();
        x[BETA] = treeBusBwGBps / theta[TAU];
        return x;
    }

    @Override
    public List<String> parameterNames() {
        return model.parameterNames();
    }

    @Override
    public double timeUs(double bytes, double[] theta) {
        return model.timeUs(bytes, plain(theta));
    }

    @Override
    public void timesUs(double[] bytes, double[] theta, double[] out) {
        model.timesUs(bytes, plain(theta), out);
    }

    /** The envelope's gradient, with β's share moved onto τ (dβ/dτ = −β/τ); β itself does not move. */
    @Override
    public double[] gradient(double bytes, double[] theta) {
        double[] x = plain(theta);
        return pinned(model.gradient(bytes, x), x, theta);
    }

    @Override
    public void gradients(double[] bytes, double[] theta, double[][] out) {
        double[] x = plain(theta);
        model.gradients(bytes, x, out);
        for (double[] row : out) {
            pinned(row, x, theta);
        }
    }

    @Override
    public void timesUs(double[] bytes, double[] theta, double[] out, int[] pieces) {
        model.timesUs(bytes, plain(theta), out, pieces);
    }

    @Override
    public void gradients(double[] bytes, double[] theta, double[][] out, int[] pieces) {
        double[] x = plain(theta);
        model.gradients(bytes, x, out, pieces);
        for (double[] row : out) {
            pinned(row, x, theta);
        }
    }

    /** The envelope's gradient g at x = plain(θ), β's share moved onto τ, in place. */
    private static double[] pinned(double[] g, double[] x, double[] theta) {
        g[TAU] -= g[BETA] * x[BETA] / theta[TAU];
        g[BETA] = 0;
        return g;
    }
}
