package org.ncclharness.calibration.calibrate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.commons.math3.exception.MathIllegalStateException;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.Identifiability;
import org.ncclharness.calibration.fit.SeedUtilisation;
import org.ncclharness.calibration.fit.SingleTierEstimator;
import org.ncclharness.calibration.fit.SingleTierEstimator.BetaChoice;
import org.ncclharness.calibration.fit.SingleTierEstimator.Choice;
import org.ncclharness.calibration.hardware.ChipProfile;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.hardware.LineRate;
import org.ncclharness.calibration.hardware.Topology;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.nccl.ChannelCounts;
import org.ncclharness.calibration.measure.WrongRows;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.model.LatencyRule;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.fit.envelope.TailNote;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;

/**
 * The single-tier calibration method of docs/calibration.md, applied to one sweep: α by method A (chip profile) and
 * method B (fitted or user-fixed ℓ_link), β the seed's way (u_r from the peak busbw) and fitted jointly with α, the
 * naive u_r = 0.95 beside them, NVLS/SHARP detected from the data, RMSPE per band in-sample and leave-one-out.
 * Multi-domain runs are deferred to {@link TwoTierCalibrator}, which fits the families that apply across domains (the
 * envelope among them, as an effective single tier): one line with one β would hide the slower tier.
 */
public final class SingleTierCalibrator {

    public static final String METHOD_A = "A";
    public static final String METHOD_B = "B";
    public static final String METHOD_B_FITTED_BETA = "B+beta";
    public static final String NAIVE = "naive";
    public static final String ENVELOPE = "envelope";
    /** Model names in report order. */
    public static final List<String> MODELS = List.of(METHOD_A, METHOD_B, METHOD_B_FITTED_BETA, NAIVE, ENVELOPE);

    private static final String ABOVE_PEAK = "ABOVE-PEAK";
    private static final String NVLS = "NVLS";
    /** A measured u_r below this says the interconnect named is not the one the run used. */
    private static final double IMPLAUSIBLE_UR = 0.05;

    private final HardwareFacts facts;
    private final CalibrationOptions options;
    private final FitProgress progress;
    /** The one model fitted, null for every model that applies. */
    private final String only;

    public SingleTierCalibrator(HardwareFacts facts, CalibrationOptions options) {
        this(facts, options, FitProgress.NONE);
    }

    /** With {@code progress} told of every leave-one-out refit (a bar for large inputs). */
    public SingleTierCalibrator(HardwareFacts facts, CalibrationOptions options, FitProgress progress) {
        this(facts, options, progress, null);
    }

    private SingleTierCalibrator(HardwareFacts facts, CalibrationOptions options, FitProgress progress, String only) {
        this.facts = facts;
        this.options = options;
        this.progress = progress;
        this.only = only;
    }

    /**
     * A calibrator that fits one model ({@link #MODELS}) where it applies and no other, for a caller that reads
     * only that one (predict --interconnect borrows B+beta): the entry is the full one's but for the fits left out,
     * and its best model is the one fitted.
     */
    public SingleTierCalibrator only(String model) {
        if (!MODELS.contains(model)) {
            throw new IllegalArgumentException("no single-tier model " + model + "; known: " + MODELS);
        }
        return new SingleTierCalibrator(facts, options, progress, model);
    }

    public CalibrationEntry calibrate(CalibrationInput in) {
        DatasetInfo info = in.info();
        Hardware hw = info.hardware();
        if (in.flags().contains("mixed-configurations")) {
            return new DeferredCalibration(info, null,
                    "rows come from several runs or configurations (mixed-configurations): not one sweep to fit");
        }
        Integer n = in.sweep().ranks();
        if (n == null || n < 2) {
            return new DeferredCalibration(info, null, n == null ? "N (the GPU count) is unknown"
                    : "a single rank has no communication to model");
        }
        if (multiDomain(hw)) {
            return new DeferredCalibration(info, DeferredCalibration.TWO_TIER, String.format(Locale.ROOT,
                    "awaiting the two-tier fit: %d GPUs in %d domains of %s over %s + %s", n, hw.domains(),
                    hw.domainSize() == null ? "?" : hw.domainSize(), stated(hw.intra()), stated(hw.inter())));
        }
        String icName = tierInterconnect(hw);
        if (icName == null) {
            return new DeferredCalibration(info, null, "the interconnect is not stated");
        }
        Optional<Interconnect> ic = facts.interconnect(icName);
        if (ic.isEmpty()) {
            return new DeferredCalibration(info, null, "interconnect " + icName
                    + " is not in hardware/interconnects.json (known: " + String.join(", ", facts.vocabulary()) + ")");
        }
        Topology topo = options.topology() == null ? facts.topologyOf(ic.get())
                : facts.topology(options.topology()).orElseThrow(() -> new IllegalArgumentException(
                        "unknown topology " + options.topology() + " (known: " + facts.topologyNames() + ")"));
        FitPoints points = FitPoints.from(in.sweep(), n);
        if (points.size() < 2) {
            return new DeferredCalibration(info, null, "fewer than 2 usable points (" + points.size() + ")");
        }
        Identifiability fromData = Identifiability.of(points.timeUs(), points.busBwGBps());
        Identifiability ident = fromData.declared(in.flags());
        if (!ident.alpha() && !ident.beta()) {
            return new DeferredCalibration(info, null, String.format(Locale.ROOT,
                    "the data determine neither alpha nor beta (T ratio %.2f, busbw ratio %.2f)",
                    ident.timeRatio(), ident.busBwRatio()));
        }
        CalibrationEntry c;
        try {
            c = calibrate(in, info, hw, n, ic.get(), topo, points, ident);
        } catch (MathIllegalStateException e) {
            // Degenerate data (all times equal, a single size repeated) can stall the optimiser: say so.
            return new DeferredCalibration(info, null, "the least-squares fit did not converge: " + e.getMessage());
        }
        if (c instanceof SingleTierCalibration s && ident.overridden(fromData)) {
            List<Note> notes = new ArrayList<>(s.notes());
            notes.add(Note.info("the " + ident.basis() + " decides what is calibrated; the data alone would say "
                    + fromData.label()));
            return s.withNotes(notes);
        }
        return c;
    }

    /**
     * What busbw above the line rate points to: none for a network's on one host (the data did not cross it); NVLS
     * where the log's channel counts say NCCL set up NVLS channels (a fact, preferred to what the interconnect's kind
     * suggests), never NVLS where they say it set up none; else the interconnect's in-network reduction.
     */
    static String inNetworkFlag(Interconnect ic, boolean networkOnOneHost, Optional<ChannelCounts> logged) {
        if (networkOnOneHost) {
            return ABOVE_PEAK;
        }
        Optional<Boolean> nvls = logged.flatMap(ChannelCounts::nvlsAvailable);
        if (nvls.orElse(false)) {
            return NVLS;
        }
        String ofFabric = ic.inNetworkReduction();
        return ofFabric == null || nvls.isPresent() && ofFabric.equals(NVLS) ? ABOVE_PEAK : ofFabric;
    }

    private CalibrationEntry calibrate(CalibrationInput in, DatasetInfo info, Hardware hw, int n,
                                            Interconnect ic, Topology topo, FitPoints points,
                                            Identifiability ident) {
        Double betaPhys = ic.betaPhysGBps();
        SeedUtilisation seed = SeedUtilisation.of(points, betaPhys, topo.inNetworkUr());
        // a network's switches reduce only between hosts: on one host, busbw above a network's line rate says the
        // data did not cross that network at all
        boolean networkOnOneHost = topo.betweenHosts() && hw.hosts() != null && hw.hosts() == 1;
        Optional<ChannelCounts> logged = in.nvlsChannels();
        String flag = ident.beta() && seed.aboveLineRate() ? inNetworkFlag(ic, networkOnOneHost, logged) : null;
        Optional<ChipProfile> chip = facts.chipFor(hw.gpuModel());
        SingleTierModel pipeline = new SingleTierModel(in.sweep().collective(), n, topo.hopsPerStep(),
                LatencyRule.PIPELINE);
        SingleTierModel stepSum = new SingleTierModel(in.sweep().collective(), n, topo.hopsPerStep(),
                LatencyRule.STEP_SUM);

        List<String> marks = new ArrayList<>();
        List<Note> notes = new ArrayList<>(points.notes());
        notes.addAll(in.sweep().notes());
        WrongRows.note(in.sweep().rows()).ifPresent(notes::add);
        // What ℓ_link is when it is not fitted: the user's value, or 0 where the data cannot see α at all.
        Choice latency = options.linkLatencyUs() != null || !ident.alpha() ? Choice.FIXED : Choice.FITTED;
        double fixedLatency = options.linkLatencyUs() != null ? options.linkLatencyUs() : 0.0;
        if (options.linkLatencyUs() != null) {
            marks.add(String.format(Locale.ROOT, "l_link fixed by the user at %.4g us", options.linkLatencyUs()));
        } else if (!ident.alpha()) {
            marks.add(String.format(Locale.ROOT, "alpha not calibrated: bandwidth-only data (%s; busbw at the"
                    + " smallest size is %.0f%% of the peak); l_link taken as 0", ident.basis(),
                    100 * ident.busBwRatio()));
        }
        // For latency-only data β is a stand-in, never a calibrated value.
        BetaChoice betaChoice = BetaChoice.SEED;
        double standIn = 0;
        if (!ident.beta()) {
            betaChoice = BetaChoice.FIXED;
            standIn = betaPhys != null ? facts.naiveUr() * betaPhys : seed.busBwPeakGBps();
            marks.add(String.format(Locale.ROOT, "beta not calibrated: latency-only data (%s; T grows %.2fx over"
                    + " the sweep); stand-in beta_eff = %.4g GB/s (%s)", ident.basis(), ident.timeRatio(), standIn,
                    betaPhys != null ? facts.naiveUr() + " x beta_phys" : "the peak busbw, no beta_phys known"));
        }

        List<SingleTierEstimator> estimators = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        if (chip.isPresent()) {
            estimators.add(new SingleTierEstimator(METHOD_A, "method A: alpha = (N-1) x alpha_step of the "
                    + chip.get().chip() + " profile; beta " + betaText(betaChoice), stepSum, Choice.FIXED,
                    chip.get().alphaStepUs(), betaChoice, standIn, betaPhys, topo.inNetworkUr()));
        } else {
            unavailable.put(METHOD_A, "no profile for " + (hw.gpuModel() == null ? "an unnamed GPU" : hw.gpuModel()));
        }
        estimators.add(new SingleTierEstimator(METHOD_B, "method B: alpha = 2(N-1) x hops x l_link, l_link "
                + latencyText(latency) + "; beta " + betaText(betaChoice), pipeline, latency, fixedLatency,
                betaChoice, standIn, betaPhys, topo.inNetworkUr()));
        if (ident.beta()) {
            estimators.add(new SingleTierEstimator(METHOD_B_FITTED_BETA, "method B with beta_eff fitted jointly"
                    + " with alpha (least squares on relative error), l_link " + latencyText(latency), pipeline,
                    latency, fixedLatency, BetaChoice.FITTED, 0, betaPhys, topo.inNetworkUr()));
            if (betaPhys != null) {
                estimators.add(new SingleTierEstimator(NAIVE, "naive: beta_eff = " + facts.naiveUr()
                        + " x beta_phys, alpha by method B with l_link " + latencyText(latency), pipeline, latency,
                        fixedLatency, BetaChoice.FIXED, facts.naiveUr() * betaPhys, betaPhys, topo.inNetworkUr()));
            } else {
                unavailable.put(NAIVE, ic.name() + " has no fixed beta_phys");
            }
        } else {
            unavailable.put(METHOD_B_FITTED_BETA, "latency-only data: beta cannot be fitted");
            unavailable.put(NAIVE, "latency-only data: the naive beta is method B's stand-in");
        }

        if (flag != null) {
            // the log's nvls count, where printed, says whether NVLS can explain it; else the interconnect's kind
            String logSays = logged.map(ch -> "NCCL's lines print " + ch.nvls() + " nvls channels: ").orElse("");
            String why = networkOnOneHost ? "a run on one host did not move its data over " + ic.name() + ", a"
                    + " network between hosts: name the fabric inside the host (" + Advice.name(Setting.INTERCONNECT)
                    + " NVLink4, PCIe5, ...)"
                    : logged.isEmpty() ? LineRate.whyAbove(ic, false, in.sweep().collective())
                    : flag.equals(NVLS) ? logSays + "in-network reduction (NVLS), which the alpha-beta ring model"
                    + " cannot represent"
                    : NVLS.equals(ic.inNetworkReduction()) ? logSays + "not NVLS, so more links than stated, or a"
                    + " misstated interconnect"
                    : logSays + LineRate.whyAbove(ic, false, in.sweep().collective());
            notes.add(Note.info(String.format(Locale.ROOT, "%s: busbw at the largest size (%.2f GB/s) exceeds"
                    + " beta_phys (%.4g GB/s): %s; %s", flag, seed.busBwPeakGBps(), betaPhys, why, seed.capped()
                            ? String.format(Locale.ROOT, "u_r %.2f used instead of %.3f", seed.ur(), seed.measuredUr())
                            : "u_r above 1 kept as measured")));
        }
        if (ident.beta() && seed.measuredUr() != null && seed.measuredUr() < IMPLAUSIBLE_UR) {
            // the bundled runs reach at least 7 % (consumer PCIe cards without P2P); far below, the fabric named
            // is not the one the data moved over
            notes.add(Note.info(String.format(Locale.ROOT, "busbw peaks at %.3g GB/s, %.1f %% of %s's %s GB/s: is"
                    + " the interconnect right? A run this far below its fabric ran over another one (PCIe, the"
                    + " network) or through host memory", seed.busBwPeakGBps(), 100 * seed.measuredUr(), ic.name(),
                    BigDecimal.valueOf(betaPhys).stripTrailingZeros().toPlainString())));
        }
        if (in.forcedAlgo() != null) {
            notes.add(Note.info("the run forced NCCL_ALGO=" + in.forcedAlgo() + (in.forcedAlgo()
                    .equalsIgnoreCase("ring") ? ": the ring model describes it"
                    : ": the ring model describes Ring, not this algorithm")));
        }

        // The protocol envelope (issue 5) needs alpha and beta from the data and more points than its parameters.
        ProtocolEnvelopeModel envelope = new ProtocolEnvelopeModel(in.sweep().collective(), n, topo.hopsPerStep());
        int k = envelope.parameterNames().size();
        List<Estimator> toFit = new ArrayList<>(estimators);
        if (ident.alpha() && ident.beta() && points.size() > k) {
            toFit.add(ProtocolEnvelopeEstimator.fitted(ENVELOPE, "protocol envelope: min over"
                    + " LL/LL128/Simple of alpha_p + f*M/(eta_p*beta_eff), alpha_p = 2(N-1) x hops x l_p; l_p and eta"
                    + " fitted, beta_eff from the sweep's end (the alpha-beta line through its largest sizes)",
                    envelope));
        } else {
            unavailable.put(ENVELOPE, ident.alpha() && ident.beta()
                    ? k + " parameters need more than " + points.size() + " points"
                    : "needs alpha and beta from the data (this data calibrates " + ident.label() + ")");
        }
        if (only != null) {
            toFit.removeIf(e -> !e.name().equals(only));
            if (toFit.isEmpty()) {
                return new DeferredCalibration(info, null, "model " + only + " does not apply: "
                        + unavailable.getOrDefault(only, "this data calibrates " + ident.label()));
            }
        }
        List<Fit> fits = fit(toFit, points, marks);
        fits.forEach(f -> TailNote.of(f, points).map(Note::info).ifPresent(notes::add));
        return finish(in, info, ic, topo, chip, seed, flag, points, ident, fits, unavailable, notes);
    }

    /**
     * Each estimator fitted and scored, in order; with {@link Scoring#PICK_ONLY} the envelope's leave-one-out (refits,
     * where the lines have a closed form) only where it can still win the pick.
     */
    private List<Fit> fit(List<Estimator> toFit, FitPoints points, List<String> marks) {
        boolean pickOnly = options.scoring() == Scoring.PICK_ONLY;
        Predicate<Estimator> fittedNow = e -> !pickOnly || e instanceof SingleTierEstimator;
        List<Estimator> now = toFit.stream().filter(fittedNow).toList();
        progress.started(now.stream().mapToInt(e -> Fitter.refits(points.size(), e.freeParameters().size())).sum());
        List<Fit> fits = new ArrayList<>();
        for (Estimator e : now) {
            fits.add(Fitter.fit(e, points, marks, progress));
        }
        // the rest by the same test, not by now.contains: a record's equals is bootstrapped (method handles) at its
        // first call, about 6 % of a one-run calibrate's CPU (issue 43)
        List<PickOnly.Pending<Fit>> pending = toFit.stream().filter(fittedNow.negate())
                .map(e -> PickOnly.Pending.of(e, points, marks, progress)).toList();
        PickOnly.score(options.scoring(), fits.stream().map(ModelChoice.Family::of).toList(), pending);
        pending.forEach(p -> fits.add(p.result()));
        List<String> order = toFit.stream().map(Estimator::name).toList();
        fits.sort(java.util.Comparator.comparingInt(f -> order.indexOf(f.name())));
        return fits;
    }

    private SingleTierCalibration finish(CalibrationInput in, DatasetInfo info, Interconnect ic, Topology topo,
                                         Optional<ChipProfile> chip, SeedUtilisation seed, String flag,
                                         FitPoints points, Identifiability ident, List<Fit> fits,
                                         Map<String, String> unavailable, List<Note> notes) {
        // the pick of the multi-domain runs: out-of-sample RMSPE, a family too small for leave-one-out by generalized
        // cross-validation (a 16-size sweep has too few for the envelope's, not for B's: by leave-one-out alone a
        // real GB300 run got B at 17.6 % where the envelope fit within 5 %); in-sample where nothing has the points
        ModelChoice choice = SingleTierCalibration.choose(fits);
        Fit best = fits.stream().filter(f -> f.name().equals(choice.picked())).findFirst().orElseThrow();
        ModelChoice.Family picked = ModelChoice.Family.of(best);
        String basis = picked.leaveOneOutPct().isPresent() ? SingleTierCalibration.BY_LEAVE_ONE_OUT
                : choice.estimates().containsKey(best.name()) ? SingleTierCalibration.BY_GCV
                : SingleTierCalibration.BY_IN_SAMPLE;
        // The catalog derives the times of busbw-only tables before they reach us; its flags say so.
        boolean derived = points.timeDerived() || in.flags().contains("time-derived")
                || in.flags().contains("busbw-only");
        return new SingleTierCalibration(info, ic.name(), topo.name(), topo.hopsPerStep(),
                chip.map(ChipProfile::chip).orElse(null), seed, flag, points.placement(), derived,
                ident, fits, unavailable, best.name(), basis, notes);
    }

    private static String stated(String interconnect) {
        return interconnect == null ? "(not stated)" : interconnect;
    }

    /** More than one NVLink domain with more than one GPU each: two tiers. */
    public static boolean multiDomain(Hardware hw) {
        return hw.domains() != null && hw.domains() > 1 && (hw.domainSize() == null || hw.domainSize() > 1);
    }

    /**
     * The interconnect a single-tier calibration of this hardware names ({@link SingleTierCalibration#interconnect}),
     * read from the hardware alone; empty where the calibration defers for want of one (two tiers, none stated, one
     * the facts do not know). Lets a caller that wants one interconnect's runs skip the rest unfitted.
     */
    public static Optional<Interconnect> interconnectOf(Hardware hw, HardwareFacts facts) {
        String name = multiDomain(hw) ? null : tierInterconnect(hw);
        return name == null ? Optional.empty() : facts.interconnect(name);
    }

    /** The one interconnect of a single-tier run: the network when each domain holds one GPU. */
    private static String tierInterconnect(Hardware hw) {
        boolean oneGpuPerDomain = hw.domains() != null && hw.domains() > 1 && hw.domainSize() != null
                && hw.domainSize() == 1;
        if (oneGpuPerDomain && hw.inter() != null) {
            return hw.inter();
        }
        return hw.intra() != null ? hw.intra() : hw.inter();
    }

    private static String latencyText(Choice c) {
        return c == Choice.FITTED ? "fitted" : "fixed";
    }

    private static String betaText(BetaChoice b) {
        return b == BetaChoice.SEED ? "the seed's: beta_phys x u_r, u_r = BusBW_peak / beta_phys"
                : "a stand-in (not calibrated)";
    }
}
