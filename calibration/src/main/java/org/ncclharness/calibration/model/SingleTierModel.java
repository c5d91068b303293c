package org.ncclharness.calibration.model;

import java.util.List;
import org.ncclharness.calibration.measure.Collective;

/**
 * The single-tier α-β ring model (docs/calibration.md, "The model"): T(M) = α + f·M/β_eff, f the collective's bus
 * factor (2(N−1)/N for AllReduce), so busbw → β_eff as M → ∞. θ = (latency parameter, β_eff in GB/s); α follows from
 * the latency parameter by the {@link LatencyRule}, so the same θ predicts any N.
 *
 * @param collective the collective timed
 * @param ranks      N
 * @param hops       physical hops per ring step (used by {@link LatencyRule#PIPELINE})
 * @param rule       how α scales with the configuration
 */
public record SingleTierModel(Collective collective, int ranks, int hops, LatencyRule rule) implements CostModel {

    public static final String FORM = "single-tier-ring";
    public static final String BETA = "betaEffGBps";
    /** bytes per µs in one GB/s (decimal, as nccl-tests). */
    private static final double BYTES_PER_US_PER_GBPS = 1e3;

    public SingleTierModel {
        RingSteps.requireRing(ranks, hops);
    }

    @Override
    public String form() {
        return FORM;
    }

    @Override
    public SingleTierConfiguration configuration() {
        return new SingleTierConfiguration(collective, ranks, hops, rule);
    }


    @Override
    public boolean oneTier() {
        return true;
    }

    @Override
    public List<String> parameterNames() {
        return List.of(rule.parameterName(), BETA);
    }

    /** α per unit of the latency parameter at this configuration. */
    public double latencyCoefficient() {
        return rule.coefficient(RingSteps.of(collective, ranks), hops);
    }

    /** The bandwidth-term coefficient f (the bus factor). */
    public double busFactor() {
        return collective.busFactor(ranks);
    }

    public double alphaUs(double[] theta) {
        return latencyCoefficient() * theta[0];
    }

    @Override
    public double timeUs(double bytes, double[] theta) {
        return alphaUs(theta) + busFactor() * bytes / (theta[1] * BYTES_PER_US_PER_GBPS);
    }

    @Override
    public double[] gradient(double bytes, double[] theta) {
        double beta = theta[1];
        return new double[] {latencyCoefficient(),
            -busFactor() * bytes / (beta * beta * BYTES_PER_US_PER_GBPS)};
    }

    /** The same model at another rank count (per-hop and per-step parameters carry over). */
    @Override
    public SingleTierModel at(Scale scale) {
        return new SingleTierModel(collective, scale.gpus(), hops, rule);
    }

    @Override
    public <R> R accept(CostModelVisitor<R> visitor) {
        return visitor.singleTier(this);
    }
}
