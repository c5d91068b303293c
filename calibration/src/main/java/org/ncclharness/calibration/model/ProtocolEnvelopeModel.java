package org.ncclharness.calibration.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * The protocol-aware ring model: NCCL picks the fastest of LL, LL128 and Simple for each size, so the time is the
 * lower envelope T(M) = min_p α_p + f·M/(η_p·β_eff), f the collective's bus factor (2(N−1)/N for AllReduce).
 * α_p = steps·hops·ℓ_p (method B's pipeline rule, per protocol), so ℓ_p and β_eff carry over to another N.
 *
 * <p>θ = (ℓ_LL, ℓ_LL128, ℓ_Simple, β_eff, η_LL, η_LL128); η_Simple = 1 by definition (β_eff is Simple's
 * bandwidth). A point-to-point collective (AllToAll, SendRecv, Gather, Scatter) never runs on LL128, so its envelope is
 * the minimum over LL and Simple and ℓ_LL128, η_LL128 do not enter. The estimator fits the η from NCCL's own (0.5 and
 * 0.92, src/graph/tuning.cc) or holds them there ({@link org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator#fitEfficiency()}); held, the
 * envelope loses to method B on one bundled dataset (docs/model-accuracy.md): NCCL also caps LL at llMaxBw and trims
 * channels, so the measured shares differ per system.
 *
 * @param collective the collective timed
 * @param ranks      N
 * @param hops       physical hops per ring step
 */
public record ProtocolEnvelopeModel(Collective collective, int ranks, int hops) implements EnvelopeCostModel {

    public static final String FORM = "protocol-envelope";
    public static final String BETA = SingleTierModel.BETA;
    public static final int BETA_INDEX = 3;
    /** θ's index of η_LL; η_LL128 follows (Simple has none: it is the reference). */
    private static final int EFFICIENCY_INDEX = 4;
    private static final List<String> NAMES = List.of("llLinkLatencyUs", "ll128LinkLatencyUs",
            "simpleLinkLatencyUs", BETA, "llEfficiency", "ll128Efficiency");
    private static final double BYTES_PER_US_PER_GBPS = 1e3;
    private static final Protocol[] PROTOCOLS = Protocol.values();
    private static final int SIMPLE = Protocol.SIMPLE.ordinal();
    private static final int LL128_INDEX = Protocol.LL128.ordinal();
    /** Crossings beyond 1 PB are not switch points any sweep could see. */
    private static final double MAX_SWITCH_BYTES = 1e15;

    public ProtocolEnvelopeModel {
        RingSteps.requireRing(ranks, hops);
    }

    @Override
    public String form() {
        return FORM;
    }

    @Override
    public ProtocolEnvelopeConfiguration configuration() {
        return new ProtocolEnvelopeConfiguration(collective, ranks, hops);
    }


    @Override
    public boolean oneTier() {
        return true;
    }

    @Override
    public List<String> parameterNames() {
        return NAMES;
    }

    /** α per unit of ℓ_p: steps·hops. */
    public double latencyCoefficient() {
        return (double) RingSteps.of(collective, ranks) * hops;
    }

    /** θ's index of η_p for LL or LL128 (both envelopes keep them there). */
    public static int efficiencyIndex(Protocol p) {
        return EFFICIENCY_INDEX + p.ordinal();
    }

    public static double efficiency(Protocol p, double[] theta) {
        return p == Protocol.SIMPLE ? 1.0 : theta[efficiencyIndex(p)];
    }

    /** The name of {@link #efficiency}'s parameter for LL or LL128 (Simple's is 1 by definition, not a parameter). */
    public static String efficiencyName(Protocol p) {
        if (p == Protocol.SIMPLE) {
            throw new IllegalArgumentException("Simple's efficiency is 1, not a parameter");
        }
        return NAMES.get(efficiencyIndex(p));
    }

    public double alphaUs(Protocol p, double[] theta) {
        return latencyCoefficient() * theta[p.ordinal()];
    }

    /** µs per byte of protocol p's bandwidth term. */
    private double slope(Protocol p, double[] theta) {
        return collective.busFactor(ranks) / (efficiency(p, theta) * theta[BETA_INDEX] * BYTES_PER_US_PER_GBPS);
    }

    /**
     * The bus bandwidth at which the protocol that carries this size moves each further byte: η_p·β, in the
     * collective's bus-bandwidth terms (busbw as nccl-tests prints it).
     */
    public double carrierBusBwGBps(double bytes, double[] theta) {
        return efficiency(chosen(bytes, theta), theta) * theta[BETA_INDEX];
    }

    /** The time protocol p alone would take. */
    public double protocolTimeUs(Protocol p, double bytes, double[] theta) {
        return alphaUs(p, theta) + slope(p, theta) * bytes;
    }

    /** The protocol the envelope takes at this size (NCCL's order LL, LL128, Simple breaks ties). */
    public Protocol chosen(double bytes, double[] theta) {
        return PROTOCOLS[new Terms(theta).chosen(bytes)];
    }

    /** Whether LL128 is a candidate: not for the point-to-point collectives ({@link Protocol#runs}). */
    public boolean ll128() {
        return Protocol.LL128.runs(collective);
    }

    /**
     * What θ alone decides of each protocol: its latency α and its bandwidth term's µs per byte. A fit evaluates
     * every size at each θ it tries, so these are worked out once per θ, not once per size; every time below is
     * α + slope·M, {@link #protocolTimeUs}'s operations in its order, so the same bits wherever it is computed.
     */
    private final class Terms implements Envelope {
        private final double[] alpha = new double[PROTOCOLS.length];
        private final double[] slope = new double[PROTOCOLS.length];
        private final double coef = latencyCoefficient();
        private final boolean ll128 = ll128();

        Terms(double[] theta) {
            double f = collective.busFactor(ranks);
            for (int p = 0; p < PROTOCOLS.length; p++) {
                double eff = p == SIMPLE ? 1.0 : theta[EFFICIENCY_INDEX + p];
                alpha[p] = coef * theta[p];
                slope[p] = f / (eff * theta[BETA_INDEX] * BYTES_PER_US_PER_GBPS);
            }
        }

        @Override
        public double time(int p, double bytes) {
            return alpha[p] + slope[p] * bytes;
        }

        /** The index of the fastest protocol (NCCL's order LL, LL128, Simple breaks ties). */
        @Override
        public int chosen(double bytes) {
            int best = 0;
            double t = Double.POSITIVE_INFINITY;
            for (int p = 0; p < PROTOCOLS.length; p++) {
                if (p == LL128_INDEX && !ll128) {
                    continue;
                }
                double tp = time(p, bytes);
                if (tp < t) {
                    t = tp;
                    best = p;
                }
            }
            return best;
        }

        /** Protocol p's gradient at this size, over all of g (the envelope is piecewise linear in ℓ). */
        @Override
        public void gradient(int p, double bytes, double[] theta, double[] g) {
            Arrays.fill(g, 0);
            g[p] = coef;
            double bandwidthUs = slope[p] * bytes;
            g[BETA_INDEX] = -bandwidthUs / theta[BETA_INDEX];
            if (p != SIMPLE) {
                g[EFFICIENCY_INDEX + p] = -bandwidthUs / theta[EFFICIENCY_INDEX + p];
            }
        }
    }

    @Override
    public Envelope envelopeAt(double[] theta) {
        return new Terms(theta);
    }

    /**
     * Sizes where the envelope changes protocol, ascending: walking up from 0 bytes, the nearest size where a
     * protocol with a steeper-bandwidth (smaller) slope overtakes the current one. Empty where one protocol wins
     * everywhere.
     */
    public List<SwitchPoint> switchPoints(double[] theta) {
        List<SwitchPoint> out = new ArrayList<>();
        double m = 0;
        Protocol current = chosen(0, theta);
        while (true) {
            SwitchPoint next = null;
            for (Protocol q : Protocol.values()) {
                double gain = slope(current, theta) - slope(q, theta);
                if (q == current || gain <= 0 || !q.runs(collective)) {
                    continue;
                }
                double x = (alphaUs(q, theta) - alphaUs(current, theta)) / gain;
                if (x > m && (next == null || x < next.bytes())) {
                    next = new SwitchPoint(current, q, x);
                }
            }
            if (next == null || next.bytes() > MAX_SWITCH_BYTES) {
                return out;
            }
            out.add(next);
            m = next.bytes();
            current = next.to();
        }
    }

    /** The same model at another rank count (per-hop latencies, β_eff and η carry over). */
    @Override
    public ProtocolEnvelopeModel at(Scale scale) {
        return new ProtocolEnvelopeModel(collective, scale.gpus(), hops);
    }

    @Override
    public <R> R accept(CostModelVisitor<R> visitor) {
        return visitor.protocolEnvelope(this);
    }

    /** One protocol change on the envelope, at {@code bytes} (the nccl-tests size). */
    public record SwitchPoint(Protocol from, Protocol to, double bytes) {
    }
}
