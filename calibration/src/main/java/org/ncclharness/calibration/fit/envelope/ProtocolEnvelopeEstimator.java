package org.ncclharness.calibration.fit.envelope;

import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.fit.Bounds;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.RelativeLeastSquares;
import org.ncclharness.calibration.fit.TailBandwidth;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.nccl.NcclTuning;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * Fits the {@link ProtocolEnvelopeModel} by least squares on relative error (Commons Math LM through
 * {@link RelativeLeastSquares}) from a small, fixed set of starts, keeping the best: the envelope is piecewise, so
 * one start can settle with a protocol that never wins. Every start is derived from the points alone, so the fit is
 * deterministic and leave-one-out re-derives it without the held-out point. β_eff is the sweep's end
 * ({@link TailBandwidth}) wherever the fit then carries the largest size on Simple, and is fitted with the rest
 * elsewhere: either way one quantity estimated from the data, so k does not change.
 *
 * @param name           report key
 * @param description    one line for the report
 * @param model          the envelope
 * @param fitEfficiency  true: η_LL and η_LL128 are fitted (k = 6); false: held at NCCL's ring factors (k = 4)
 * @param ceilingGBps    where the envelope is a multi-domain run's effective single tier, the most busbw any
 *                       algorithm moves between its domains ({@link BandwidthCeiling}), null where not known or on
 *                       one domain: β at most that where no size fitted passed it
 */
public record ProtocolEnvelopeEstimator(String name, String description, ProtocolEnvelopeModel model,
                                        boolean fitEfficiency, Double ceilingGBps) implements Estimator {

    public ProtocolEnvelopeEstimator(String name, String description, ProtocolEnvelopeModel model,
                                     boolean fitEfficiency) {
        this(name, description, model, fitEfficiency, null);
    }

    /** This estimator with β under {@code ceilingGBps} (null: none). */
    public ProtocolEnvelopeEstimator withCeiling(Double ceilingGBps) {
        return new ProtocolEnvelopeEstimator(name, description, model, fitEfficiency, ceilingGBps);
    }

    /** The estimator the project uses: η fitted (with NCCL's η held fixed it lost to method B, see the report). */
    public static ProtocolEnvelopeEstimator fitted(String name, String description, ProtocolEnvelopeModel model) {
        return new ProtocolEnvelopeEstimator(name, description, model, true);
    }

    /** Ratios ℓ_LL128/ℓ_LL and ℓ_Simple/ℓ_LL tried as starts (NCCL's own latencies span about 1 : 2.5 : 4). */
    static final double[][] LATENCY_RATIOS = {{1.5, 2}, {2.5, 4}, {4, 10}, {8, 30}};
    static final double EFFICIENCY_FLOOR = 0.05;
    /**
     * η is a share of Simple's bandwidth on the same links: LL and LL128 carry less payload per line than Simple
     * and NCCL's tuner never rates them above it, so above 1 an η describes no protocol (free, a fit put LL128 at
     * 1.6 times Simple's bandwidth and switched back to it above Simple as sizes grew).
     */
    static final double EFFICIENCY_CEILING = 1;
    private static final int LATENCIES_AND_BETA = 4;

    @Override
    public List<String> freeParameters() {
        boolean[] free = free(true);
        List<String> names = model.parameterNames();
        return java.util.stream.IntStream.range(0, names.size()).filter(j -> free[j]).mapToObj(names::get).toList();
    }

    /**
     * The parameters fitted: the latencies, β (unless held at the sweep's end) and the η (where fitted); LL128's
     * latency and η not where the collective never runs on LL128 (point-to-point: {@link Protocol#runs}).
     */
    private boolean[] free(boolean betaFree) {
        boolean[] free = new boolean[model.parameterNames().size()];
        java.util.Arrays.fill(free, 0, LATENCIES_AND_BETA, true);
        free[ProtocolEnvelopeModel.BETA_INDEX] = betaFree;
        free[ProtocolEnvelopeModel.efficiencyIndex(Protocol.LL)] = fitEfficiency;
        free[ProtocolEnvelopeModel.efficiencyIndex(Protocol.LL128)] = fitEfficiency && model.ll128();
        free[Protocol.LL128.ordinal()] = model.ll128();
        return free;
    }

    @Override
    public double[] estimate(FitPoints points) {
        double f = model.collective().busFactor(model.ranks());
        Double ceiling = BandwidthCeiling.unpassed(ceilingGBps, List.of(points));
        // β from the sweep's bandwidth-bound end (TailBandwidth), while Simple carries that end as NCCL's tuner
        // has it and the end is within the ceiling; where the fit would rather carry it on LL or LL128, or the end's
        // line runs above the ceiling, β is fitted with the rest
        Optional<TailBandwidth> tail = TailBandwidth.of(points, f)
                .filter(t -> BandwidthCeiling.holds(ceiling, t.busBwGBps()));
        if (tail.isPresent()) {
            double[] pinned = fit(points, tail.get().busBwGBps(), false, ceiling);
            if (pinned != null && tail.get().heldAt(model.carrierBusBwGBps(points.bytes()[points.largest()],
                    pinned))) {
                return pinned;
            }
        }
        // a start within the ceiling: no measured size passed it
        return fit(points, Math.max(points.busBwGBps()[points.largest()], 1e-6), true, ceiling);
    }

    /** The best of the starts, β starting at (or, not free, held at) {@code beta}, at most {@code ceiling}. */
    private double[] fit(FitPoints points, double beta, boolean betaFree, Double ceiling) {
        double[] bytes = points.bytes();
        double[] t = points.timeUs();
        double coef = model.latencyCoefficient();
        double f = model.collective().busFactor(model.ranks());
        // ℓ_LL start: what makes the smallest size all latency at the peak busbw (a lower bound of β_eff and close
        // to it for bandwidth-bound data).
        double peak = Math.max(points.busBwGBps()[points.largest()], 1e-6);
        double lowest = Math.max(t[0] - f * bytes[0] / (peak * 1e3), t[0] * 0.5) / coef;
        int k = model.parameterNames().size();
        double[] lower = new double[k];
        lower[ProtocolEnvelopeModel.BETA_INDEX] = 1e-9;
        int ll = ProtocolEnvelopeModel.efficiencyIndex(Protocol.LL);
        int ll128 = ProtocolEnvelopeModel.efficiencyIndex(Protocol.LL128);
        lower[ll] = EFFICIENCY_FLOOR;
        lower[ll128] = EFFICIENCY_FLOOR;
        // Start η from NCCL's own ring LL and LL128 shares of the bus bandwidth (NCCL's src/graph/tuning.cc).
        NcclTuning nccl = NcclTuning.forVersion(null).tuning();
        boolean[] free = free(betaFree);
        List<double[]> starts = new java.util.ArrayList<>();
        for (double[] r : LATENCY_RATIOS) {
            starts.add(new double[] {lowest, lowest * r[0], lowest * r[1], beta, nccl.ringLLBusBwFactor(),
                nccl.ringLL128BusBwFactor()});
        }
        Bounds bounds = Bounds.below(lower).withCeiling(ll, EFFICIENCY_CEILING).withCeiling(ll128, EFFICIENCY_CEILING);
        if (ceiling != null) {
            bounds = bounds.withCeiling(ProtocolEnvelopeModel.BETA_INDEX, ceiling);
        }
        return RelativeLeastSquares.bestOf(List.of(model), List.of(points), starts, free, bounds);
    }
}
