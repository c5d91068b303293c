package org.ncclharness.calibration.calibrate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Identifiability;
import org.ncclharness.calibration.fit.TailBandwidth;
import org.ncclharness.calibration.fit.SingleTierEstimator;
import org.ncclharness.calibration.fit.SingleTierEstimator.BetaChoice;
import org.ncclharness.calibration.fit.SingleTierEstimator.Choice;
import org.ncclharness.calibration.hardware.ChipProfile;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.hardware.Topology;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.LatencyRule;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.NcclBaseline;
import org.ncclharness.calibration.fit.envelope.AlgorithmEnvelopeEstimator;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * The models the accuracy report compares, set up for one dataset: each an {@link Estimator}, or the reason it
 * does not apply. (a) datasheet: β = naive 0.95·β_phys, α by method A; (b) method B as {@code calibrate} fits it;
 * (c) the protocol envelope; (d) NCCL's own tuner, an unfitted estimate; (e) the two-tier fit.
 */
public final class Candidates {

    public static final String DATASHEET = "datasheet";
    public static final String METHOD_B = "B";
    public static final String ENVELOPE = "envelope";
    public static final String ENVELOPE_NCCL_ETA = "envelope-nccl-eta";
    public static final String NCCL = "nccl";
    public static final String TWO_TIER = "two-tier";
    public static final String ALGORITHMS = "algorithms";
    /** Report order, with the one-line description each table is headed by. */
    public static final Map<String, String> MODELS = descriptions();

    private static final int SWITCHED_HOPS = 2;

    private Candidates() {
    }

    private static Map<String, String> descriptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(DATASHEET, "(a) datasheet: beta_eff = 0.95 x beta_phys (naive u_r), alpha by method A (chip profile)");
        m.put(METHOD_B, "(b) method B: l_link fitted, beta_eff = beta_phys x measured u_r (calibrate's model B)");
        m.put(ENVELOPE, "(c) protocol envelope: min over LL/LL128/Simple of alpha_p + f*M/(eta_p*beta), l_p and eta"
                + " fitted (eta <= 1: LL and LL128 never faster than Simple), beta from the sweep's end (the"
                + " alpha-beta line through the sizes within "
                + (int) TailBandwidth.OCTAVES + " octaves of the largest whose busbw is at least "
                + TailBandwidth.BUSBW_SHARE + " of its; fitted with the rest where the fit would carry the"
                + " largest size on LL or LL128) (k = 6); on multi-domain runs an effective single tier (2 hops per"
                + " step), beta at most what any algorithm moves between the domains where the metadata states the"
                + " NICs and no size passed it (the line rate x (N-1)d/(N(d-1)); docs/two-tier.md)");
        m.put(ENVELOPE_NCCL_ETA, "(c') the same envelope with NCCL's eta held fixed (LL 0.5, LL128 0.92 of the bus"
                + " bandwidth, NCCL src/graph/tuning.cc), k = 4: the first version, kept to show why eta is fitted");
        m.put(NCCL, "(d) NCCL's own tuner (Ring/Tree x LL/LL128/Simple): an estimate from NCCL's constants, not fitted");
        m.put(TWO_TIER, "(e) two-tier fit (calibrate's two-tier calibrator, the better of its hierarchical and flat"
                + " forms, k = 5): multi-domain runs only; leave-one-out overall only");
        m.put(ALGORITHMS, "(f) algorithm envelope: min over Ring/Tree x LL/LL128/Simple with NCCL's step counts across"
                + " domains (AllReduce: Ring 2(N-1) steps, 2(d-1) of them over the network, Tree 2((g-1) + log2 d);"
                + " AllGather/ReduceScatter N-1 steps, d-1 over the network; Broadcast/Reduce a pipelined chain of N-1"
                + " hops, d-1 over the network, bus factor 1; AllToAll N-1 peer exchanges, N-g of them over the"
                + " network carrying (N-g)/N of the bytes), l_p, l_net,"
                + " eta and the tree factor fitted, the bandwidth of the algorithm that carries the largest size (Ring's"
                + " beta or Tree's tau*beta) from the sweep's end as in (c) (k = 8, 7 without Tree or where Tree is"
                + " never the faster, one less where l_net is not told apart from l_p: one GPU per domain, or Ring the"
                + " only candidate on one configuration; on one"
                + " domain the envelope (c), k = 6; joint cross-scale fits: the smaller configurations across domains,"
                + " beta fitted with the rest; beta under the NICs' ceiling as in (c), jointly the lowest of the"
                + " runs')");
        return m;
    }

    /** One model for one dataset: an estimator, or why there is none. */
    public record Candidate(String model, Estimator estimator, String reason) {
        static Candidate of(String model, Estimator e) {
            return new Candidate(model, e, null);
        }

        static Candidate none(String model, String reason) {
            return new Candidate(model, null, reason);
        }
    }

    /** The single-tier candidates and NCCL's for a dataset, in {@link #MODELS} order (two-tier: {@link TwoTierScores}). */
    public static List<Candidate> forDataset(Dataset d, FitPoints points, HardwareFacts facts) {
        List<Candidate> out = new ArrayList<>();
        Hardware hw = d.sweep().hardware();
        int n = hw.ranks();
        Collective c = d.collective();
        // what is read of calibrate's entry: its setup (hops, identifiability, seed) and whether it fits B; its
        // other families' fits, the envelope's leave-one-out refits among them, would be made again below
        CalibrationEntry entry = new SingleTierCalibrator(facts, CalibrationOptions.defaults())
                .only(SingleTierCalibrator.METHOD_B).calibrate(new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags()));
        Optional<SingleTierCalibration> single = entry instanceof SingleTierCalibration s ? Optional.of(s)
                : Optional.empty();
        String whyNot = single.isPresent() ? null : reason(entry);
        out.add(single.map(s -> datasheet(d, s, facts)).orElse(Candidate.none(DATASHEET, whyNot)));
        out.add(single.map(s -> s.fit(SingleTierCalibrator.METHOD_B).isPresent()
                ? Candidate.of(METHOD_B, methodB(d, s, facts))
                : Candidate.none(METHOD_B, "not fitted by calibrate")).orElse(Candidate.none(METHOD_B, whyNot)));
        int hops = single.map(SingleTierCalibration::hops).orElse(SWITCHED_HOPS);
        ProtocolEnvelopeModel envelope = new ProtocolEnvelopeModel(c, n, hops);
        out.add(envelope(ProtocolEnvelopeEstimator.fitted(ENVELOPE, MODELS.get(ENVELOPE), envelope)
                .withCeiling(RunBandwidthCeiling.ceilingGBps(d, facts)), points));
        out.add(envelope(new ProtocolEnvelopeEstimator(ENVELOPE_NCCL_ETA, MODELS.get(ENVELOPE_NCCL_ETA), envelope,
                false), points));
        out.add(envelope(algorithms(d, facts, single.map(SingleTierCalibration::hops)), points));
        NcclBaseline nccl = NcclBaseline.of(c, hw, d.metadata().ncclVersion(), d.metadata().nicsPerHost(),
                d.metadata().nicGbps());
        out.add(nccl.model().map(m -> Candidate.of(NCCL, new FixedEstimator(NCCL, MODELS.get(NCCL), m)))
                .orElse(Candidate.none(NCCL, String.join("; ", nccl.notes()))));
        return out;
    }

    /**
     * The envelope where the data can determine it: latencies and bandwidth both visible (as {@code calibrate}
     * requires), and more points than parameters.
     */
    private static Candidate envelope(Estimator e, FitPoints points) {
        int k = e.freeParameters().size();
        if (points.size() <= k) {
            return Candidate.none(e.name(), k + " parameters need more than " + points.size() + " points");
        }
        Identifiability id = Identifiability.of(points.timeUs(), points.busBwGBps());
        if (!id.alpha() || !id.beta()) {
            return Candidate.none(e.name(), "the data calibrate " + id.label() + ", the envelope needs both");
        }
        return Candidate.of(e.name(), e);
    }

    /** The algorithm envelope at the run's d × g, the intra-domain hops from the fabric where it is known. */
    public static AlgorithmEnvelopeEstimator algorithms(Dataset d, HardwareFacts facts, Optional<Integer> singleTierHops) {
        Hardware hw = d.sweep().hardware();
        boolean multi = d.metadata().multiDomain() && hw.domains() != null && hw.domainSize() != null;
        TwoTierConfig config = multi ? new TwoTierConfig(hw.domains(), hw.domainSize())
                : new TwoTierConfig(1, hw.ranks());
        int hops = singleTierHops.orElseGet(() -> Optional.ofNullable(hw.intra()).flatMap(facts::interconnect)
                .map(ic -> facts.topologyOf(ic).hopsPerStep()).orElse(SWITCHED_HOPS));
        return new AlgorithmEnvelopeEstimator(ALGORITHMS, MODELS.get(ALGORITHMS),
                new AlgorithmEnvelopeModel(d.collective(), config, hops,
                        AlgorithmEnvelopeModel.ringForced(d.metadata().algo())),
                multi ? RunBandwidthCeiling.ceilingGBps(d, facts) : null);
    }

    private static String reason(CalibrationEntry e) {
        return e instanceof org.ncclharness.calibration.calibrate.DeferredCalibration dc ? dc.reason()
                : "not single-tier";
    }

    private static Candidate datasheet(Dataset d, SingleTierCalibration s, HardwareFacts facts) {
        Optional<ChipProfile> chip = facts.chipFor(d.sweep().hardware().gpuModel());
        Interconnect ic = facts.interconnect(s.interconnect()).orElseThrow();
        if (chip.isEmpty()) {
            return Candidate.none(DATASHEET, "no chip profile for " + d.sweep().hardware().gpuModel());
        }
        if (ic.betaPhysGBps() == null) {
            return Candidate.none(DATASHEET, ic.name() + " has no datasheet bandwidth");
        }
        SingleTierModel m = new SingleTierModel(d.collective(), s.ranks(), s.hops(), LatencyRule.STEP_SUM);
        return Candidate.of(DATASHEET, new SingleTierEstimator(DATASHEET, MODELS.get(DATASHEET), m, Choice.FIXED,
                chip.get().alphaStepUs(), BetaChoice.FIXED, facts.naiveUr() * ic.betaPhysGBps(), ic.betaPhysGBps(),
                null));
    }

    /** Method B as {@code calibrate} sets it up: ℓ_link fitted, β the seed's (u_r measured at the peak). */
    private static Estimator methodB(Dataset d, SingleTierCalibration s, HardwareFacts facts) {
        Interconnect ic = facts.interconnect(s.interconnect()).orElseThrow();
        Topology topo = facts.topology(s.topology()).orElseThrow();
        SingleTierModel m = new SingleTierModel(d.collective(), s.ranks(), s.hops(), LatencyRule.PIPELINE);
        boolean alpha = s.identifiability().alpha();
        boolean beta = s.identifiability().beta();
        double standIn = ic.betaPhysGBps() != null ? facts.naiveUr() * ic.betaPhysGBps() : s.seed().busBwPeakGBps();
        return new SingleTierEstimator(METHOD_B, MODELS.get(METHOD_B), m, alpha ? Choice.FITTED : Choice.FIXED, 0,
                beta ? BetaChoice.SEED : BetaChoice.FIXED, standIn, ic.betaPhysGBps(), topo.inNetworkUr());
    }
}
