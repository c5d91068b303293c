package org.ncclharness.calibration.fit.envelope;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.ncclharness.calibration.fit.Bounds;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.RelativeLeastSquares;
import org.ncclharness.calibration.fit.TailBandwidth;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.nccl.NcclTuning;
import org.ncclharness.calibration.nccl.Protocol;
import org.ncclharness.calibration.nccl.ProtocolDataShares;

/**
 * Fits the {@link AlgorithmEnvelopeModel} by least squares on relative error, on one run or jointly on runs of
 * one system at several configurations ({@link #estimateJoint}), from a fixed set of starts derived from the
 * points alone (deterministic, so leave-one-out re-derives it). On one domain ℓ_net and τ do not enter: the fit
 * is the single-tier envelope's own, with ℓ_net = 0 and τ = 1, and k = 6; across domains k = 8, one less without
 * τ (a collective without NCCL's Tree, or where Tree is never the faster) and one less without ℓ_net (where the runs
 * do not tell it from ℓ_p, {@link AlgorithmEnvelopeModel#netLatencyDetermined(List)}: Ring alone on one
 * configuration); two fewer for a point-to-point collective, which never runs on LL128
 * ({@link org.ncclharness.calibration.nccl.Protocol#runs}). One run's bandwidth is its sweep's end
 * ({@link #pinned}), in the model's β terms ({@link AlgorithmEnvelopeModel#betaOfBusBw}).
 *
 * @param name        report key
 * @param description one line for the report
 * @param model       the model at the run's configuration
 * @param ceilingGBps the most busbw any algorithm moves between the run's domains ({@link BandwidthCeiling}), null
 *                    where not known: β at most that where no size fitted passed it
 */
public record AlgorithmEnvelopeEstimator(String name, String description, AlgorithmEnvelopeModel model,
                                         Double ceilingGBps) implements Estimator {

    public AlgorithmEnvelopeEstimator(String name, String description, AlgorithmEnvelopeModel model) {
        this(name, description, model, null);
    }

    /** This estimator with β under {@code ceilingGBps} (null: none). */
    public AlgorithmEnvelopeEstimator withCeiling(Double ceilingGBps) {
        return new AlgorithmEnvelopeEstimator(name, description, model, ceilingGBps);
    }

    /** Shares of the smallest size's latency started on the network steps (the rest on the links). */
    private static final double[] NET_SHARES = {0.2, 0.6};
    /**
     * Ring's link steps over Tree's above which the starts also put the latency on Tree: from 8 nodes (6.3 at 8
     * GPUs per node, 5.2 at 4; 3.4 at 4 nodes of 8; from 32 nodes at one GPU per node).
     */
    private static final double TREE_STARTS_ABOVE = 4;

    @Override
    public List<String> freeParameters() {
        return freeParameters(List.of(model));
    }

    /**
     * The parameters a fit of runs at these configurations moves: ℓ_net only where the runs tell it from ℓ_p, τ
     * only where Tree can be the faster.
     */
    public static List<String> freeParameters(List<AlgorithmEnvelopeModel> models) {
        boolean[] free = free(models);
        List<String> names = models.get(0).parameterNames();
        return IntStream.range(0, names.size()).filter(j -> free[j]).mapToObj(names::get).toList();
    }

    /**
     * The parameters the data determine: the envelope's (LL128's only where a run's collective runs on it), ℓ_net
     * and τ where some run determines them.
     */
    private static boolean[] free(List<AlgorithmEnvelopeModel> models) {
        boolean[] free = new boolean[AlgorithmEnvelopeModel.TREE_FACTOR + 1];
        Arrays.fill(free, 0, AlgorithmEnvelopeModel.NET_LATENCY, true);
        free[AlgorithmEnvelopeModel.NET_LATENCY] = AlgorithmEnvelopeModel.netLatencyDetermined(models);
        free[AlgorithmEnvelopeModel.TREE_FACTOR] = models.stream().anyMatch(AlgorithmEnvelopeModel::treeDetermined);
        boolean ll128 = models.stream().anyMatch(AlgorithmEnvelopeModel::ll128);
        free[Protocol.LL128.ordinal()] = ll128;
        free[ProtocolEnvelopeModel.efficiencyIndex(Protocol.LL128)] = ll128;
        return free;
    }

    /**
     * On one domain, the protocol envelope whose fit this estimator's is ({@link #fromEnvelope}): ℓ_net and τ do not
     * enter there. Empty across domains. A caller that fits that envelope anyway can take its θ from it.
     */
    public Optional<ProtocolEnvelopeEstimator> oneDomainEnvelope() {
        return model.multiDomain() ? Optional.empty() : Optional.of(ProtocolEnvelopeEstimator.fitted(name, description,
                new ProtocolEnvelopeModel(model.collective(), model.config().ranks(), model.hops()))
                .withCeiling(ceilingGBps));
    }

    /** θ in this model's terms from the {@link #oneDomainEnvelope}'s: ℓ_net = 0, τ = 1; null (no fit) stays null. */
    public double[] fromEnvelope(double[] envelopeTheta) {
        if (envelopeTheta == null) {
            return null;
        }
        double[] theta = Arrays.copyOf(envelopeTheta, model.parameterNames().size());
        theta[AlgorithmEnvelopeModel.TREE_FACTOR] = 1;
        return theta;
    }

    @Override
    public double[] estimate(FitPoints points) {
        Optional<ProtocolEnvelopeEstimator> envelope = oneDomainEnvelope();
        if (envelope.isPresent()) {
            return fromEnvelope(envelope.get().estimate(points));
        }
        Double ceiling = BandwidthCeiling.unpassed(ceilingGBps, List.of(points));
        Setup s = setup(List.of(model), List.of(points), ceiling);
        // an end whose line runs above the ceiling is not pinned: β is fitted with the rest, within it
        return TailBandwidth.of(points, model.collective().busFactor(model.config().ranks()))
                .filter(t -> BandwidthCeiling.holds(ceiling, t.busBwGBps()))
                .flatMap(t -> pinned(points, t, s, ceiling))
                .orElseGet(() -> RelativeLeastSquares.bestOf(List.of(model), List.of(points), s.starts(), s.free(),
                        s.bounds()));
    }

    /**
     * One θ for runs of one system at several configurations, each run predicted by its own model; the first
     * multi-domain run decides nothing more than the others. β is fitted with the rest: pinned to the end of the
     * run with the most ranks, the cross-scale predictions of docs/model-accuracy.md were worse (the GH200 group's
     * 2048-GPU run 2.25x its floor against 1.75x), as one run's end at one N is not the bandwidth the others share.
     *
     * @param ceilingsGBps per run, the most busbw any algorithm moves between its domains ({@link BandwidthCeiling}),
     *                     null where not known: β at most the lowest where no run's sizes passed their own
     */
    public static double[] estimateJoint(List<AlgorithmEnvelopeModel> models, List<FitPoints> points,
                                         List<Double> ceilingsGBps) {
        Setup s = setup(models, points, BandwidthCeiling.unpassed(ceilingsGBps, points));
        return RelativeLeastSquares.bestOf(models, points, s.starts(), s.free(), s.bounds());
    }

    /**
     * The fit with the bandwidth of the algorithm that carries the largest size pinned to the sweep's end
     * ({@link TailBandwidth}): Ring/Simple's β itself, or Tree/Simple's τ·β (β then follows τ,
     * {@link TreeBandwidthPinned}). A pinning counts only where the fit does carry that size on the line it pinned
     * (on LL128 the size moves at η·β, not at the end's rate); of two that do, the lower cost. Empty where neither
     * does: β is then fitted with the rest.
     */
    private Optional<double[]> pinned(FitPoints points, TailBandwidth tail, Setup s, Double ceiling) {
        boolean[] free = s.free().clone();
        free[ProtocolEnvelopeModel.BETA_INDEX] = false;
        List<double[]> starts = s.starts().stream().map(x -> {
            double[] y = x.clone();
            y[ProtocolEnvelopeModel.BETA_INDEX] = model.betaOfBusBw(tail.busBwGBps());
            return y;
        }).toList();
        List<FitPoints> run = List.of(points);
        double[] ring = RelativeLeastSquares.bestOf(List.of(model), run, starts, free, s.bounds());
        double[] best = holds(ring, tail, points) ? ring : null;
        if (treeMayCarryTheEnd(model)) {
            TreeBandwidthPinned pin = new TreeBandwidthPinned(model, tail.busBwGBps());
            double[] t = RelativeLeastSquares.bestOf(List.of(pin), run, starts, free, s.bounds());
            double[] tree = t == null ? null : pin.plain(t);
            // β = τ·β/τ follows τ: at τ ≤ 0.92 it may stand above the ceiling the pinned end itself is within
            if (holds(tree, tail, points) && BandwidthCeiling.holds(ceiling, tree[ProtocolEnvelopeModel.BETA_INDEX])
                    && (best == null || cost(tree, points) < cost(best, points))) {
                best = tree;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Whether Tree can carry a sweep's largest sizes at all: its bandwidth is at most NCCL's 0.92 of Ring's, so
     * only where Ring's latency is many times Tree's (the configurations where the starts also put the latency on
     * Tree, from 8 nodes) does Ring lose sizes that large. Elsewhere the Tree pinning is not tried: it costs a
     * second multi-start fit on every leave-one-out refit.
     */
    private static boolean treeMayCarryTheEnd(AlgorithmEnvelopeModel m) {
        return m.treeApplies()
                && m.linkCoefficient(Algorithm.RING) > TREE_STARTS_ABOVE * m.linkCoefficient(Algorithm.TREE);
    }

    /** Whether θ moves the largest size at the end's rate: on the Simple line it pinned, not on LL or LL128. */
    private boolean holds(double[] theta, TailBandwidth tail, FitPoints points) {
        return theta != null && tail.heldAt(model.carrierBusBwGBps(points.bytes()[points.largest()], theta));
    }

    private double cost(double[] theta, FitPoints points) {
        return RelativeLeastSquares.cost(List.of(model), List.of(points), theta);
    }

    private static int widest(List<AlgorithmEnvelopeModel> models) {
        int widest = 0;
        for (int r = 1; r < models.size(); r++) {
            widest = models.get(r).config().ranks() > models.get(widest).config().ranks() ? r : widest;
        }
        return widest;
    }

    /** What a fit starts from, may move and within what bounds. */
    private record Setup(List<double[]> starts, boolean[] free, Bounds bounds) {
    }

    private static Setup setup(List<AlgorithmEnvelopeModel> models, List<FitPoints> points, Double ceilingGBps) {
        int k = AlgorithmEnvelopeModel.TREE_FACTOR + 1;
        double beta0 = 1e-6;
        for (int r = 0; r < models.size(); r++) {
            FitPoints p = points.get(r);
            beta0 = Math.max(beta0, models.get(r).betaOfBusBw(p.busBwGBps()[p.largest()]));
        }
        // The latency scale: the smallest size of the run with the most ranks, all latency.
        int widest = widest(models);
        AlgorithmEnvelopeModel m = models.get(widest);
        FitPoints p = points.get(widest);
        double c = m.busCoefficient(Algorithm.RING);
        double latency = Math.max(p.timeUs()[0] - c * p.bytes()[0] / (beta0 * 1e3), p.timeUs()[0] * 0.5);
        // The smallest size is all latency of the algorithm that carries it: Ring's, and where Ring has many times
        // Tree's link steps also Tree's (at 540 nodes of 4 it has 180 times: a Ring-scaled start leaves Tree with
        // no latency at all and the fit settles far from the data; below that the latency ratios the starts try
        // already cover Tree, and more starts would only multiply every leave-one-out refit)
        List<Algorithm> carriers = treeMayCarryTheEnd(m) ? List.of(Algorithm.RING, Algorithm.TREE)
                : List.of(Algorithm.RING);
        boolean[] free = free(models);
        boolean netFree = free[AlgorithmEnvelopeModel.NET_LATENCY];
        // some steps stay within a domain: the latency may lie on the links or the network in any share, and the
        // starts try two, whether or not the data tell l_net apart
        boolean intraSteps = models.stream().anyMatch(x -> x.multiDomain() && x.config().gpusPerDomain() > 1);
        double[] lower = new double[k];
        lower[ProtocolEnvelopeModel.BETA_INDEX] = 1e-9;
        int ll = ProtocolEnvelopeModel.efficiencyIndex(Protocol.LL);
        int ll128 = ProtocolEnvelopeModel.efficiencyIndex(Protocol.LL128);
        lower[ll] = ProtocolEnvelopeEstimator.EFFICIENCY_FLOOR;
        lower[ll128] = ProtocolEnvelopeEstimator.EFFICIENCY_FLOOR;
        lower[AlgorithmEnvelopeModel.TREE_FACTOR] = ProtocolEnvelopeEstimator.EFFICIENCY_FLOOR;
        NcclTuning nccl = NcclTuning.forVersion(null).tuning();
        List<double[]> starts = new ArrayList<>();
        for (Algorithm carrier : carriers) {
            double linkCoef = m.linkCoefficient(carrier);
            double netCoef = Math.max(m.netCoefficient(carrier), 1);
            for (double share : netFree || intraSteps ? NET_SHARES : new double[] {0}) {
                double ell = latency * (1 - share) / linkCoef;
                double net = latency * share / netCoef;
                // where l_net is not told from l_p, its share rides on every protocol's link latency (the same
                // alpha as a start with it) and l_net stays at 0
                double onLinks = netFree ? 0 : net * netCoef / linkCoef;
                double netStart = netFree ? net : 0;
                for (double[] r : ProtocolEnvelopeEstimator.LATENCY_RATIOS) {
                    // τ stays where it starts when no run has Tree (it does not enter): 1, as on one domain
                    starts.add(new double[] {ell + onLinks, ell * r[0] + onLinks, ell * r[1] + onLinks, beta0,
                        nccl.ringLLBusBwFactor(), nccl.ringLL128BusBwFactor(), netStart,
                        free[AlgorithmEnvelopeModel.TREE_FACTOR]
                            ? nccl.treeBusBwFactor() : 1});
                }
            }
        }
        // NCCL's tuner gives Tree AllReduce at most treeBusBwFactor of the ring's bus bandwidth: with no ceiling a
        // fit whose sizes Tree carries leaves the ring's β unbounded, and the sizes beyond the fit go to a Ring
        // that can be any speed. LL and LL128 likewise move data at most at their lines' data share of Simple's
        // rate: with η above it LL128 can carry every large size of a fit, β (Simple's) is then set by nothing,
        // and the sizes beyond the fit go to a Simple of any speed. On one domain the same ceiling made the
        // envelope's extrapolation worse and is not applied there (docs/two-tier.md has the figures)
        ProtocolDataShares shares = ProtocolDataShares.bundled();
        Bounds bounds = Bounds.below(lower).withCeiling(AlgorithmEnvelopeModel.TREE_FACTOR, nccl.treeBusBwFactor())
                .withCeiling(ll, shares.of(Protocol.LL)).withCeiling(ll128, shares.of(Protocol.LL128));
        // β at most what any algorithm moves between the domains (BandwidthCeiling)
        if (ceilingGBps != null) {
            bounds = bounds.withCeiling(ProtocolEnvelopeModel.BETA_INDEX, ceilingGBps);
        }
        return new Setup(starts, free, bounds);
    }
}
