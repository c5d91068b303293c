package org.ncclharness.calibration.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.model.SingleTierModel;

/**
 * The single-tier estimators of docs/calibration.md, one record for all of them: the latency parameter is fixed (a chip
 * profile, a user's ℓ_link, 0) or fitted; β_eff is the seed's peak-based value, a fixed value (the naive
 * 0.95·β_phys, a stand-in) or fitted jointly with the latency. Whatever is fitted is fitted by
 * {@link RelativeLine} (in closed form).
 *
 * @param name         report key
 * @param description  one line for the report
 * @param model        the model θ belongs to
 * @param latency      how the latency parameter is chosen
 * @param latencyUs    its value when fixed, ignored when fitted
 * @param beta         how β_eff is chosen
 * @param betaGBps     β_eff when fixed, ignored otherwise
 * @param betaPhysGBps β_phys for the seed (null where the interconnect has no figure)
 * @param inNetworkUr  the topology's conservative u_r for runs above line rate (null: none)
 */
public record SingleTierEstimator(String name, String description, SingleTierModel model, Choice latency,
                                  double latencyUs, BetaChoice beta, double betaGBps, Double betaPhysGBps,
                                  Double inNetworkUr) implements Estimator {

    /** How the latency parameter is chosen. */
    public enum Choice { FIXED, FITTED }

    /** How β_eff is chosen. */
    public enum BetaChoice { SEED, FIXED, FITTED }

    private static final Bounds LOWER = Bounds.below(new double[] {0.0, 1e-9});

    @Override
    public List<String> freeParameters() {
        List<String> k = new ArrayList<>();
        if (latency == Choice.FITTED) {
            k.add(model.rule().parameterName());
        }
        if (beta == BetaChoice.SEED) {
            k.add("uR");
        } else if (beta == BetaChoice.FITTED) {
            k.add(SingleTierModel.BETA);
        }
        return k;
    }

    /**
     * θ in closed form ({@link RelativeLine}); by Levenberg–Marquardt only where the minimum lies at β = ∞ (times
     * that fall with size), whose optimiser answer, a β run off to where it stops, is what such data give.
     */
    @Override
    public double[] estimate(FitPoints points) {
        SeedUtilisation seed = SeedUtilisation.of(points, betaPhysGBps, inNetworkUr);
        return RelativeLine.of(model, points, LOWER).fit(fixedLatency(), fixedBeta(seed))
                .orElseGet(() -> numeric(points, seed));
    }

    /** Each point predicted by the closed-form fit without it ({@link RelativeLine#fitWithout}): no refit. */
    @Override
    public Optional<double[]> heldOutUs(FitPoints points) {
        RelativeLine line = RelativeLine.of(model, points, LOWER);
        double[] bytes = points.bytes();
        double[] held = new double[bytes.length];
        for (int i = 0; i < held.length; i++) {
            // the seed's β is the peak of the points the fold keeps
            Double b = beta == BetaChoice.SEED ? fixedBeta(SeedUtilisation.of(points.without(i), betaPhysGBps,
                    inNetworkUr)) : fixedBeta(null);
            int fold = i;
            double[] theta = line.fitWithout(i, fixedLatency(), b).orElseGet(() -> estimate(points.without(fold)));
            held[i] = model.timeUs(bytes[i], theta);
        }
        return Optional.of(held);
    }

    private Double fixedLatency() {
        return latency == Choice.FIXED ? latencyUs : null;
    }

    private Double fixedBeta(SeedUtilisation seed) {
        return switch (beta) {
            case SEED -> seed.betaEffGBps();
            case FIXED -> betaGBps;
            case FITTED -> null;
        };
    }

    private double[] numeric(FitPoints points, SeedUtilisation seed) {
        double b = beta == BetaChoice.FITTED ? seed.busBwPeakGBps() : fixedBeta(seed);
        double l = latency == Choice.FIXED ? latencyUs : startLatency(points, b);
        double[] theta = {l, b};
        boolean[] free = {latency == Choice.FITTED, beta == BetaChoice.FITTED};
        return RelativeLeastSquares.fit(model, theta, free, LOWER, points);
    }

    /** The latency that makes the model exact at the smallest size, floored at 0. */
    private double startLatency(FitPoints points, double b) {
        double bandwidthUs = model.timeUs(points.bytes()[0], new double[] {0, b});
        return Math.max(0, (points.timeUs()[0] - bandwidthUs) / model.latencyCoefficient());
    }
}
