package org.ncclharness.calibration.calibrate;

import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.hardware.LineRate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.ncclharness.calibration.fit.FitProgress;
import java.util.stream.IntStream;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.resolve.Comparability;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.Identifiability;
import org.ncclharness.calibration.fit.SizeBand;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.fit.envelope.AlgorithmEnvelopeEstimator;
import org.ncclharness.calibration.fit.envelope.BandwidthCeiling;
import org.ncclharness.calibration.fit.envelope.TailNote;
import org.ncclharness.calibration.fit.envelope.JointAlgorithmFit;
import org.ncclharness.calibration.fit.envelope.NearestConfigurations;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.WrongRows;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.fit.twotier.Fabric;
import org.ncclharness.calibration.nccl.ChannelCounts;
import org.ncclharness.calibration.fit.twotier.GridResult;
import org.ncclharness.calibration.fit.twotier.GridSearch;
import org.ncclharness.calibration.fit.twotier.JointGroups;
import org.ncclharness.calibration.fit.twotier.ParamRanges;
import org.ncclharness.calibration.fit.twotier.Prior;
import org.ncclharness.calibration.fit.twotier.SingleDomainPrior;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.fit.twotier.TwoTierFitter;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.fit.twotier.TwoTierProblem;
import org.ncclharness.calibration.fit.twotier.TwoTierRun;
import org.ncclharness.calibration.fit.twotier.TwoTierRuns;

/**
 * Calibrates what the single-tier calibrator deferred: each multi-domain run with the protocol-aware families
 * (the envelope as an effective single tier, the algorithm envelope) and, for AllReduce, both two-tier forms
 * ({@link TwoTierFitter}, exact, with profiles and identifiability marks), and joint groups of runs of the same
 * hardware as one entry. β_NV and hops come from the hardware facts; a single-domain run of the same GPU class
 * among the inputs lends its u_NV and ℓ_nv as priors to a dataset fitted alone. With {@link GridOptions}
 * ({@code calibrate --grid}) each entry also gets the reference grid search of both forms ({@link GridFit}).
 */
public final class TwoTierCalibrator {

    /** The algorithm envelope's model name in reports. */
    public static final String ALGORITHMS = "algorithms";
    static final String ALGORITHMS_DESCRIPTION = "algorithm envelope: min over Ring/Tree x LL/LL128/Simple with"
            + " NCCL's steps across domains (AllReduce: Ring 2(N-1) steps, 2(d-1) over the network, Tree 2((g-1) +"
            + " log2 d); AllGather/ReduceScatter N-1, d-1; Broadcast/Reduce a chain of N-1 hops, d-1; AllToAll N-1"
            + " peer exchanges, N-g over the network with (N-g)/N of the bytes),"
            + " l_p, l_net, eta and the tree factor fitted, the bandwidth of the algorithm that carries the largest"
            + " size from the sweep's end (a joint fit: fitted with the rest)";
    private static final String ENVELOPE_DESCRIPTION = "protocol envelope as an effective single tier: min over"
            + " LL/LL128/Simple of alpha_p + f*M/(eta_p*beta), l_p and eta fitted, beta from the sweep's end";

    private final HardwareFacts facts;
    private final Optional<GridOptions> grid;
    private final Scoring scoring;
    /** Whether entries also fit the protocol-aware families beside the forms ({@link #formsOnly}: not). */
    private final boolean protocolFamilies;

    public TwoTierCalibrator(HardwareFacts facts) {
        this(facts, Optional.empty());
    }

    /** With {@code grid}, every entry also gets the reference grid search of both forms ({@link GridFit}). */
    public TwoTierCalibrator(HardwareFacts facts, Optional<GridOptions> grid) {
        this(facts, grid, Scoring.EVERY_FAMILY);
    }

    /** As above, scoring out of sample the families {@code scoring} asks for. */
    public TwoTierCalibrator(HardwareFacts facts, Optional<GridOptions> grid, Scoring scoring) {
        this(facts, grid, scoring, true);
    }

    private TwoTierCalibrator(HardwareFacts facts, Optional<GridOptions> grid, Scoring scoring,
                              boolean protocolFamilies) {
        this.facts = facts;
        this.grid = grid;
        this.scoring = scoring;
        this.protocolFamilies = protocolFamilies;
    }

    /**
     * This calibrator fitting the two-tier forms alone, not the protocol-aware families beside them: for a caller
     * that reads only the forms ({@link TwoTierCalibration#best}), such as the accuracy report refitting a run's
     * held-out split, where those families' fits and leave-one-out refits would be thrown away. Where every family is
     * scored ({@link Scoring#EVERY_FAMILY}: each fitted and scored on its own) the forms, their scores and the better
     * of them are the full entry's; an entry of a collective with no forms has nothing to fit and is deferred.
     */
    public TwoTierCalibrator formsOnly() {
        return new TwoTierCalibrator(facts, grid, scoring, false);
    }

    /** The entries with every one deferred to the two-tier fit replaced by that fit (or a reason it cannot run). */
    public List<CalibrationEntry> complete(List<CalibrationInput> inputs, List<CalibrationEntry> entries) {
        // Entries are independent: on all cores, in entry order. The reference grid already uses every core and
        // draws a progress bar per search, so with it the entries go one at a time.
        IntStream indices = IntStream.range(0, entries.size());
        return (grid.isPresent() ? indices : indices.parallel()).mapToObj(i -> {
            CalibrationEntry e = entries.get(i);
            boolean awaiting = e instanceof DeferredCalibration d && DeferredCalibration.TWO_TIER.equals(d.awaiting());
            return awaiting ? calibrate(inputs.get(i), inputs) : e;
        }).toList();
    }

    /** One multi-domain input alone, with a single-domain prior from {@code all} where one fits. */
    public CalibrationEntry calibrate(CalibrationInput in, List<CalibrationInput> all) {
        DatasetInfo info = in.info();
        Optional<String> problem = unusable(in);
        if (problem.isPresent()) {
            return new DeferredCalibration(info, null, problem.get());
        }
        Fabric f = fabric(info.hardware().intra()).orElseThrow();
        List<Note> dropped = new ArrayList<>();
        List<Prior> priors = formsApply(in) ? priorFor(in, all, f, dropped) : List.of();
        // what the reader or the flags decided about the run (an interconnect taken as the network, a row cut
        // short, ...), as the single-tier calibrator keeps them
        List<Note> notes = new ArrayList<>(in.sweep().notes());
        WrongRows.note(in.sweep().rows()).ifPresent(notes::add);
        if (in.forcedAlgo() != null) {
            notes.add(Note.info("the run forced NCCL_ALGO=" + in.forcedAlgo() + (AlgorithmEnvelopeModel.ringForced(
                    in.forcedAlgo()) ? ": the algorithm envelope takes Ring alone, with no Tree"
                    : ": the algorithm envelope's Ring and Tree are NCCL's default candidates, not this one alone")));
        }
        if (!priors.isEmpty()) {
            notes.add(Note.info("priors from single-domain runs (T_sw held at 0 there): " + String.join("; ",
                    priors.stream().map(p -> String.format(Locale.ROOT, "%s = %.4g +- %.2g from %s", p.param().id(),
                            p.value(), p.sigma(), p.source())).toList())));
        }
        notes.addAll(dropped);
        return entry(info, TwoTierCalibration.KIND, List.of(in), f, priors, notes);
    }

    /**
     * Why the two-tier forms are not among a collective's families, empty where they are: both are AllReduce's
     * (2(g−1)/g and 2(d−1)/d are its bus factors), while the envelopes take any collective's step counts.
     */
    public static Optional<String> formsAbsent(Collective c) {
        return c == Collective.ALL_REDUCE ? Optional.empty()
                : Optional.of("the two-tier models describe AllReduce; this is " + c.ncclName());
    }

    private static boolean formsApply(CalibrationInput in) {
        return formsAbsent(in.sweep().collective()).isEmpty();
    }

    /**
     * Runs of the same hardware fitted as one problem: one entry, named {@code name}, whose parameters hold for
     * every member's configuration.
     *
     * @throws InputException when a member cannot take part (no times, unknown fabric, fabrics or collectives
     *                        differ, or no family can be fitted)
     */
    public TwoTierCalibration joint(String name, List<CalibrationInput> members) {
        if (members.size() < 2) {
            throw new InputException(Setting.JOINT, "a joint fit needs at least two runs; got " + members.size());
        }
        for (CalibrationInput m : members) {
            Optional<String> problem = unusable(m);
            if (problem.isPresent()) {
                throw new InputException(m.id(), 0, "cannot join the fit: " + problem.get());
            }
        }
        Set<Collective> collectives = new LinkedHashSet<>();
        members.forEach(m -> collectives.add(m.sweep().collective()));
        if (collectives.size() > 1) {
            throw new InputException(Setting.JOINT, "the runs are of different collectives " + collectives.stream()
                    .map(Collective::ncclName).toList() + "; a joint fit is for one collective at several"
                    + " configurations");
        }
        Map<String, List<String>> byIntra = new LinkedHashMap<>();
        members.forEach(m -> byIntra.computeIfAbsent(m.info().hardware().intra(), k -> new ArrayList<>())
                .add(m.info().id()));
        if (byIntra.size() > 1) {
            throw new InputException(Setting.JOINT, "the runs name different intra-domain fabrics ("
                    + byIntra.entrySet().stream().map(e -> e.getKey() + ": " + String.join(", ", e.getValue()))
                    .collect(Collectors.joining("; ")) + "); a joint fit is for one hardware at"
                    + " several configurations");
        }
        // the same fabric names on other GPUs are other hardware (GH200 nodes of 4 and H100 nodes of 8 on Slingshot)
        Set<String> gpus = new LinkedHashSet<>();
        members.forEach(m -> Comparability.gpuFamily(m.sweep().gpuName()).ifPresent(gpus::add));
        if (gpus.size() > 1) {
            throw new InputException(Setting.JOINT, "the runs ran different GPUs " + gpus + "; a joint fit is for one"
                    + " hardware at several configurations");
        }
        Set<TwoTierConfig> configs = new LinkedHashSet<>();
        members.forEach(m -> configs.add(config(m.info().hardware())));
        if (configs.size() < 2) {
            throw new InputException(Setting.JOINT, "all runs are at " + configs.iterator().next().label()
                    + "; a joint fit needs at least two configurations");
        }
        Fabric f = fabric(byIntra.keySet().iterator().next()).orElseThrow();
        DatasetInfo first = members.get(0).info();
        String ids = String.join(", ", members.stream().map(CalibrationInput::id).toList());
        Hardware h = first.hardware();
        DatasetInfo info = new DatasetInfo(name, new Provenance(first.provenance().kind(), ids, null,
                "joint fit of " + ids), collectives.iterator().next().testName(),
                new Hardware(h.gpuModel(), null, null, null, null, h.intra(), interOf(members)),
                commonAlgo(members), unionFlags(members));
        CalibrationEntry e = entry(info, TwoTierCalibration.JOINT, members, f, List.of(),
                List.of(Note.info("one set of parameters for " + members.size() + " runs at " + String.join(", ",
                        configs.stream().map(TwoTierConfig::label).toList()))));
        if (e instanceof TwoTierCalibration t) {
            return t;
        }
        throw new InputException(Setting.JOINT, ((DeferredCalibration) e).reason());
    }

    /** The bundled joint groups ({@code twotier/joint-groups.json}) whose members are all among the inputs. */
    public List<TwoTierCalibration> bundledJoint(List<CalibrationInput> inputs) {
        List<TwoTierCalibration> out = new ArrayList<>();
        for (JointGroups.Group g : JointGroups.bundled()) {
            List<CalibrationInput> members = g.ids().stream()
                    .map(id -> inputs.stream().filter(in -> in.id().equals(id)).findFirst())
                    .flatMap(Optional::stream).toList();
            if (members.size() == g.ids().size() && members.stream().allMatch(m -> unusable(m).isEmpty())) {
                out.add(joint(g.name(), members));
            }
        }
        return out;
    }

    /** The fabric's physical bandwidth and hops, where the hardware facts give both. */
    public Optional<Fabric> fabric(String intra) {
        if (intra == null) {
            return Optional.empty();
        }
        return facts.interconnect(intra).filter(ic -> ic.betaPhysGBps() != null)
                .map(ic -> new Fabric(ic.name(), ic.betaPhysGBps(), facts.topologyOf(ic).hopsPerStep()));
    }

    private Optional<String> unusable(CalibrationInput in) {
        Hardware h = in.info().hardware();
        if (h.domains() == null || h.domainSize() == null) {
            return Optional.of("the configuration (domains x GPUs per domain) is unknown; pass "
                    + Advice.name(Setting.DOMAIN_SIZE));
        }
        if (h.intra() == null) {
            return Optional.of("the intra-domain fabric is not stated; pass "
                    + Advice.usage(Setting.FABRIC_INSIDE_HOST));
        }
        if (fabric(h.intra()).isEmpty()) {
            return Optional.of("fabric " + h.intra() + " has no physical bandwidth in hardware/interconnects.json"
                    + " (known: " + String.join(", ", facts.vocabulary()) + ")");
        }
        boolean times = in.sweep().rows().stream().anyMatch(r -> r.outOfPlace().hasTime() || r.inPlace().hasTime());
        return times ? Optional.empty() : Optional.of("no row has a time");
    }

    private static TwoTierConfig config(Hardware h) {
        return new TwoTierConfig(h.domains(), h.domainSize());
    }

    /**
     * The entry of {@code members} (one run, or a joint group of one collective), or why no family could be
     * fitted: the two-tier forms are AllReduce's, and the protocol-aware families need α and β from the data.
     */
    private CalibrationEntry entry(DatasetInfo info, String kind, List<CalibrationInput> members, Fabric f,
                                   List<Prior> priors, List<Note> notes) {
        List<TwoTierRun> runs = new ArrayList<>();
        List<Placement> halves = new ArrayList<>();
        boolean derived = false;
        for (CalibrationInput m : members) {
            TwoTierRuns.Extracted x = TwoTierRuns.points(m.sweep(), m.id(), config(m.info().hardware()));
            runs.add(x.run());
            halves.add(x.half());
            derived |= Note.any(m.sweep().notes(), Note.Kind.TIME_DERIVED);
        }
        Collective collective = members.get(0).sweep().collective();
        Optional<String> noForms = formsAbsent(collective);
        TwoTierProblem p = TwoTierProblem.of(runs, f.betaNvGBps(), f.hops());
        String inter = interOf(members);
        Double nicGBps = nicGBps(members, inter == null ? null : facts.interconnect(inter).orElse(null));
        Network network = new Network(LineRate.networkGBps(nicsPerDomain(members), nicGBps),
                inter != null && facts.interconnect(inter).map(i -> i.inNetworkReduction() != null).orElse(false));
        // β_IB per domain under what any algorithm moves between the domains (the forms are AllReduce's)
        List<CalibrationInput> across = members.stream().filter(m -> config(m.info().hardware()).domains() > 1)
                .toList();
        Double betaIbCeiling = BandwidthCeiling.unpassed(across.stream().map(network::ceilingGBps).toList(),
                across.stream().map(m -> FitPoints.from(m.sweep(), config(m.info().hardware()).ranks())).toList());
        ParamRanges box = ParamRanges.defaultsFor(p, 2).withBetaIbAtMost(betaIbCeiling);
        List<PickOnly.Pending<TwoTierFit>> forms = noForms.isPresent() ? List.of()
                : Stream.of(TwoTierForm.HIERARCHICAL, TwoTierForm.FLAT_RING)
                .map(form -> PickOnly.Pending.of(p, form, box, priors, TwoTierCalibrator::family)).toList();
        List<PickOnly.Pending<Fit>> protocolPending = protocolFamilies ? protocolFits(members, f, network)
                : List.of();
        PickOnly.score(scoring, List.of(), Stream.concat(protocolPending.stream(), forms.stream()).toList());
        List<TwoTierFit> fits = forms.stream().map(PickOnly.Pending::result).toList();
        List<Fit> protocol = protocolPending.stream().map(PickOnly.Pending::result).toList();
        if (noForms.isPresent() && protocol.isEmpty()) {
            int sizes = members.stream().mapToInt(m -> m.sweep().rows().size()).sum();
            return new DeferredCalibration(info, null, "too few sizes: the envelopes need alpha and beta from the data"
                    + " and more sizes than their parameters (" + sizes + " here: sweep from 8 B to the largest), and "
                    + noForms.get());
        }
        List<Note> allNotes = new ArrayList<>(notes);
        members.forEach(m -> FitPoints.emptyRowsNote(m.sweep()).ifPresent(allNotes::add));
        if (derived) {
            allNotes.add(new Note(Note.Kind.TIME_DERIVED, "times derived from busbw (the source gives busbw only)"));
        }
        noForms.ifPresent(why -> allNotes.add(Note.info("two-tier forms not fitted: " + why)));
        if (!Algorithm.tuned(collective) && protocol.stream().anyMatch(x -> x.name().equals(ALGORITHMS))) {
            allNotes.add(Note.info(ALGORITHMS + ": NCCL runs " + collective.ncclName() + " as point-to-point sends,"
                    + " not as a ring: its Ring rows are the model's N-1 steps (d-1 across domains) with fitted"
                    + " constants, not an algorithm NCCL picks"));
        }
        if (members.size() > 1) {
            protocol.stream().filter(fit -> !fit.name().equals(NearestConfigurations.MODEL))
                    .forEach(fit -> jointMiss(members, f, fit).map(Note::info).ifPresent(allNotes::add));
        }
        List<String> oneDomain = members.stream().filter(m -> config(m.info().hardware()).domains() == 1)
                .map(CalibrationInput::id).toList();
        if (members.size() > 1 && !oneDomain.isEmpty() && oneDomain.size() < members.size()
                && protocol.stream().anyMatch(x -> x.name().equals(ALGORITHMS))) {
            // JointAlgorithmFit#fittedRuns says why
            allNotes.add(Note.info(ALGORITHMS + ": fitted on the runs across domains; left out, on one domain: "
                    + String.join(", ", oneDomain) + " (another regime of NCCL's: the ring's bandwidth there is"
                    + " NVLink's, not the slower tier's, and no step crosses the network); its scores cover the runs"
                    + " it fitted"));
        }
        if (members.size() == 1) {
            // a joint fit's bandwidth is fitted with the rest (AlgorithmEnvelopeEstimator#estimateJoint)
            FitPoints one = FitPoints.from(members.get(0).sweep(), config(members.get(0).info().hardware()).ranks());
            protocol.forEach(fit -> TailNote.of(fit, one).map(Note::info).ifPresent(allNotes::add));
        }
        Optional<TwoTierForm> better = fits.isEmpty() ? Optional.empty()
                : TwoTierFitter.better(fits).map(TwoTierFit::form);
        TwoTierCalibration t = new TwoTierCalibration(info, kind, members.stream().map(CalibrationInput::id).toList(),
                runs, halves, derived, f, inter, nicGBps, nicsPerDomain(members), fits,
                noForms.isPresent() ? List.of() : grids(info.id(), p), better,
                protocol, choose(fits, protocol), allNotes);
        OptionalDouble above = t.busBwAboveNetworkLineRateGBps();
        if (above.isEmpty()) {
            return t;
        }
        allNotes.add(Note.info(String.format(Locale.ROOT, "busbw reaches %.1f GB/s, above the %.0f GB/s the network"
                + " carries for %s between domains (%d %sNICs per domain, %.0f GB/s): %s", above.getAsDouble(),
                t.busBwCeilingGBps(), collective.ncclName(), t.nicsPerDomain(), inter == null ? "" : inter + " ",
                t.networkLineRateGBps(), LineRate.aboveNetwork(collective))));
        return t.withNotes(allNotes);
    }

    /**
     * The protocol-aware families beside the two-tier forms: the single-tier envelope as an effective single tier
     * (one run only: it has no term for another configuration) and the algorithm envelope, each where the data
     * determine latency and bandwidth and outnumber its parameters. Their β across domains is the ring's, at most
     * what the network carries for the collective where the NICs are known ({@code BandwidthCeiling}).
     *
     * @param network what the NICs between the domains carry
     */
    private static List<PickOnly.Pending<Fit>> protocolFits(List<CalibrationInput> members, Fabric f,
                                                            Network network) {
        Collective collective = members.get(0).sweep().collective();
        Optional<Runs> runs = Runs.of(members, f);
        if (runs.isEmpty()) {
            return List.of();
        }
        List<FitPoints> points = runs.get().points();
        List<AlgorithmEnvelopeModel> models = runs.get().models();
        // a joint fit counts the runs it fits (JointAlgorithmFit#fittedRuns), one run all of its points
        int n = JointAlgorithmFit.fittedRuns(models).stream().mapToInt(r -> points.get(r).size()).sum();
        if (n <= models.get(0).parameterNames().size()) {
            return List.of();
        }
        List<Double> ceilings = members.stream().map(network::ceilingGBps).toList();
        if (members.size() > 1) {
            List<PickOnly.Pending<Fit>> out = new ArrayList<>();
            out.add(PickOnly.Pending.scored(JointAlgorithmFit.fit(ALGORITHMS, ALGORITHMS_DESCRIPTION,
                    members.stream().map(CalibrationInput::id).toList(), models, points, ceilings)));
            nearest(members, models, points, ceilings).map(PickOnly.Pending::scored).ifPresent(out::add);
            return out;
        }
        ProtocolEnvelopeModel env = new ProtocolEnvelopeModel(collective, models.get(0).config().ranks(),
                f.hops());
        return Stream.of(ProtocolEnvelopeEstimator.fitted(SingleTierCalibrator.ENVELOPE, ENVELOPE_DESCRIPTION, env)
                        .withCeiling(ceilings.get(0)),
                new AlgorithmEnvelopeEstimator(ALGORITHMS, ALGORITHMS_DESCRIPTION, models.get(0), ceilings.get(0)))
                .map(e -> PickOnly.Pending.of(e, points.get(0), List.of(), FitProgress.NONE)).toList();
    }

    private static final String NEAREST_ON = "algorithm envelope on ";
    private static final String RUN_SEPARATOR = " + ";
    private static final String NEAREST_WHY = ", the fewest runs nearest the largest with 2k points: predict's model above"
            + " the largest run (docs/model-accuracy.md, cross-scale)";

    /**
     * The algorithm envelope on the fewest runs nearest the largest that give it 2k points
     * ({@link NearestConfigurations}), where they are fewer than the joint fit's: what predict uses above the largest
     * run, as docs/model-accuracy.md's cross-scale rows rank it first in every leave-one-cluster-out fold. Not a
     * candidate of the pick, which scores the models on every run.
     */
    private static Optional<Fit> nearest(List<CalibrationInput> members, List<AlgorithmEnvelopeModel> models,
                                         List<FitPoints> points, List<Double> ceilings) {
        List<Integer> across = JointAlgorithmFit.fittedRuns(models);
        List<Integer> runs = NearestConfigurations.of(across, r -> points.get(r).size(),
                rs -> AlgorithmEnvelopeEstimator.freeParameters(rs.stream().map(models::get).toList()).size());
        if (runs.size() == across.size()) {
            return Optional.empty();
        }
        List<String> ids = runs.stream().map(r -> members.get(r).id()).toList();
        return Optional.of(JointAlgorithmFit.fit(NearestConfigurations.MODEL,
                NEAREST_ON + String.join(RUN_SEPARATOR, ids) + NEAREST_WHY, ids,
                runs.stream().map(models::get).toList(), runs.stream().map(points::get).toList(), runs.stream().map(ceilings::get).toList()));
    }

    /**
     * The NICs between the domains of an entry's runs.
     *
     * @param lineRateGBps  a domain's NICs together, null where not known
     * @param switchReduces the network's switches reduce (SHARP): CollNet can run
     */
    private record Network(Double lineRateGBps, boolean switchReduces) {

        /** The most busbw any algorithm moves between a member's domains ({@link BandwidthCeiling}), or null. */
        Double ceilingGBps(CalibrationInput m) {
            TwoTierConfig c = config(m.info().hardware());
            Collective collective = m.sweep().collective();
            return BandwidthCeiling.of(LineRate.busBwCeilingGBps(collective, c.ranks(), c.gpusPerDomain(),
                    lineRateGBps), collective, c.ranks(), c.domains(), AlgorithmEnvelopeModel.ringForced(
                    m.forcedAlgo()), switchReduces);
        }
    }

    /** Each member's points and its algorithm envelope at its configuration; empty where one lacks α or β. */
    private record Runs(List<AlgorithmEnvelopeModel> models, List<FitPoints> points) {
        static Optional<Runs> of(List<CalibrationInput> members, Fabric f) {
            Collective collective = members.get(0).sweep().collective();
            List<FitPoints> points = new ArrayList<>();
            List<AlgorithmEnvelopeModel> models = new ArrayList<>();
            for (CalibrationInput m : members) {
                TwoTierConfig c = config(m.info().hardware());
                FitPoints p = FitPoints.from(m.sweep(), c.ranks());
                Identifiability id = Identifiability.of(p.timeUs(), p.busBwGBps());
                if (!id.alpha() || !id.beta()) {
                    return Optional.empty();
                }
                points.add(p);
                models.add(new AlgorithmEnvelopeModel(collective, c, f.hops(), AlgorithmEnvelopeModel.ringForced(
                        m.forcedAlgo())));
            }
            return Optional.of(new Runs(models, points));
        }
    }

    /**
     * A joint fit's miss at each fitted run's largest size, where one exceeds {@value #JOINT_MISS_PCT} %: misses
     * of both signs say one set of constants does not carry how the runs' bandwidth changes with scale (a 2-node
     * GH200 run at 158 GB/s, its 4- and 8-node runs at 92), misses of one sign that the joint bandwidth is not
     * what the largest sizes reach. A prediction beyond the runs inherits either, so it is said, with the runs.
     */
    private static Optional<String> jointMiss(List<CalibrationInput> members, Fabric f, Fit joint) {
        Optional<Runs> runs = Runs.of(members, f);
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        List<String> misses = new ArrayList<>();
        boolean any = false;
        int above = 0;
        int below = 0;
        for (int r : JointAlgorithmFit.fittedRuns(runs.get().models())) {
            FitPoints p = runs.get().points().get(r);
            int last = p.largest();
            AlgorithmEnvelopeModel m = runs.get().models().get(r);
            double predicted = m.collective().busBwGBps(p.bytes()[last], m.timeUs(p.bytes()[last], joint.theta()),
                    m.config().ranks());
            double pct = 100 * (predicted / p.busBwGBps()[last] - 1);
            any |= Math.abs(pct) > JOINT_MISS_PCT;
            above += pct > 0 ? 1 : 0;
            below += pct < 0 ? 1 : 0;
            misses.add(String.format(Locale.ROOT, "%s %+.0f %% (%.1f GB/s against %.1f)", m.config().domains() + "x"
                    + m.config().gpusPerDomain(), pct, predicted, p.busBwGBps()[last]));
        }
        if (!any) {
            return Optional.empty();
        }
        // misses of both signs: the runs' bandwidth changes with scale; of one sign: the joint bandwidth, fitted
        // with every size of every run, is not what their largest sizes reach
        String why = above > 0 && below > 0 ? "one set of constants does not carry how these runs' bandwidth changes"
                + " with scale, and a prediction beyond them inherits it; join the scales nearest the target, or"
                + " calibrate each run apart"
                : "the joint bandwidth, fitted with every size of every run, is " + (above > 0 ? "above" : "below")
                + " what their largest sizes reach, and predictions of large messages inherit it";
        return Optional.of(String.format(Locale.ROOT, "%s (joint): at each run's largest size its busbw is off by %s:"
                + " %s", joint.name(), String.join(", ", misses), why));
    }

    /** A joint fit's bandwidth miss on one of its own runs that is worth a note, in %. */
    static final double JOINT_MISS_PCT = 15;

    /** One pick among every family fitted, by leave-one-out; the envelope where none could be scored so. */
    private static ModelChoice choose(List<TwoTierFit> fits, List<Fit> protocol) {
        List<ModelChoice.Family> families = new ArrayList<>();
        // the nearest runs' fit is scored on fewer runs than the rest: predict picks it by scale, not this pick
        protocol.stream().filter(p -> !p.name().equals(NearestConfigurations.MODEL))
                .forEach(p -> families.add(ModelChoice.Family.of(p)));
        fits.forEach(t -> families.add(family(t)));
        if (!protocol.isEmpty()) {
            return ModelChoice.of(families, protocol.get(0).name(), "the default where nothing can compare the"
                    + " families (the effective single tier)");
        }
        // the form TwoTierCalibration.best() gives, so that the summary, the JSON and predict name one model; the
        // caller has left no entry with neither a form nor a protocol-aware family
        TwoTierFit lower = fits.stream().min(Comparator.comparingDouble(TwoTierFit::comparisonPct)).orElseThrow();
        return ModelChoice.of(families, lower.form().id(), "the two-tier form with the lower in-sample RMSPE");
    }

    /** A two-tier form as the pick sees it; unscored where its leave-one-out was passed over ({@link PickOnly}). */
    private static ModelChoice.Family family(TwoTierFit t) {
        ModelChoice.Family f = new ModelChoice.Family(t.form().id(), t.looRmspePct(), t.rmspe().overallPct(),
                TwoTierParam.values().length, t.rmspe().points());
        return t.leaveOneOutSkipped() ? f.unscored() : f;
    }

    /** The faithful grid of each form on the user's box, and the exact optimum of that box beside it. */
    private List<GridFit> grids(String id, TwoTierProblem p) {
        if (grid.isEmpty()) {
            return List.of();
        }
        ParamRanges box = grid.get().box(p);
        List<GridFit> out = new ArrayList<>();
        for (TwoTierForm form : TwoTierForm.values()) {
            GridResult g = GridSearch.run(p, form, box, grid.get().progress().apply(id, form));
            out.add(new GridFit(box, g, TwoTierFitter.best(p, form, box)));
        }
        return out;
    }

    /**
     * The single-domain AllReduce input of the same GPU class and fabric with the most points, among those that
     * reach the bandwidth-bound sizes.
     *
     * @param dropped gets a note for each prior that input cannot lend
     */
    private List<Prior> priorFor(CalibrationInput in, List<CalibrationInput> all, Fabric f, List<Note> dropped) {
        Hardware h = in.info().hardware();
        if (h.gpuModel() == null) {
            return List.of();
        }
        String gpu = JointGroups.gpuClass(h.gpuModel());
        Optional<CalibrationInput> best = all.stream()
                .filter(c -> {
                    Hardware ch = c.info().hardware();
                    return ch.domains() != null && ch.domains() == 1 && ch.domainSize() != null && ch.domainSize() > 1
                            && ch.gpuModel() != null && JointGroups.gpuClass(ch.gpuModel()).equals(gpu)
                            && Objects.equals(ch.intra(), h.intra()) && formsApply(c) && unusable(c).isEmpty()
                            && !c.flags().contains("mixed-configurations") && reachesBandwidthBound(c);
                })
                .max(Comparator.comparingInt((CalibrationInput c) -> c.sweep().rows().size())
                        .thenComparing(CalibrationInput::id, Comparator.reverseOrder()));
        if (best.isEmpty()) {
            return List.of();
        }
        TwoTierRun run = TwoTierRuns.of(best.get().sweep(), best.get().id(), config(best.get().info().hardware())).run();
        List<Prior> priors = SingleDomainPrior.from(TwoTierProblem.of(run, f.betaNvGBps(), f.hops()), best.get().id());
        Double inNetworkUr = facts.interconnect(f.name()).map(ic -> facts.topologyOf(ic).inNetworkUr()).orElse(null);
        // what the single-domain run's log says of NVLS, as the single-tier flag reads it
        Optional<ChannelCounts> logged = best.get().nvlsChannels();
        List<Prior> out = new ArrayList<>();
        for (Prior p : priors) {
            boolean aboveLineRate = p.param() == TwoTierParam.U_NV && p.value() > 1;
            String uNv = String.format(Locale.ROOT, "%.3f", p.value());
            if (aboveLineRate && logged.flatMap(ChannelCounts::nvlsAvailable).equals(Optional.of(false))) {
                // NCCL set up no NVLS there: not the in-network reduction, and a ring's u_NV above 1 is no prior
                dropped.add(Note.info("no u_NV prior from " + p.source() + ": u_NV " + uNv + " > 1 there, and NCCL's"
                        + " lines print 0 nvls channels for its communicator, so not NVLS (a tree, or more NVLink"
                        + " than its fabric states)"));
                continue;
            }
            // Above the line rate the single-domain run used in-network reduction (NVLS), which a ring across
            // domains does not get: the topology's conservative utilisation stands in (docs/calibration.md).
            out.add(aboveLineRate && inNetworkUr != null ? new Prior(p.param(), inNetworkUr,
                    SingleDomainPrior.MIN_RELATIVE_SIGMA * inNetworkUr, p.source() + " (u_NV " + uNv + " > 1 there: NVLS"
                    + logged.map(ch -> ", " + ch.nvls() + " nvls channels in its log").orElse("") + "; " + inNetworkUr
                    + " used)") : p);
        }
        return out;
    }

    /** u_NV means a bandwidth only where the run reaches sizes above 128 MiB, where bandwidth dominates. */
    private static boolean reachesBandwidthBound(CalibrationInput c) {
        return c.sweep().rows().stream().anyMatch(r -> SizeBand.of(r.sizeBytes()) == SizeBand.LARGE
                && (r.outOfPlace().hasTime() || r.inPlace().hasTime()));
    }

    private static String interOf(List<CalibrationInput> members) {
        return members.stream().map(m -> m.info().hardware().inter()).filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** NICs per host × hosts per domain, from the first multi-domain member that states its NICs. */
    private static Integer nicsPerDomain(List<CalibrationInput> members) {
        for (CalibrationInput m : members) {
            Hardware h = m.info().hardware();
            Integer perHost = nics(m).perHost();
            if (perHost != null && h.domains() != null && h.domains() > 1 && h.hosts() != null
                    && h.hosts() % h.domains() == 0) {
                return perHost * (h.hosts() / h.domains());
            }
        }
        return null;
    }

    /**
     * One NIC's rate: the rate a member states (--nic-speed, the metadata), else the network's figure; null where
     * neither says (EFA or TCP with no speed stated).
     */
    private static Double nicGBps(List<CalibrationInput> members, Interconnect network) {
        return members.stream().map(TwoTierCalibrator::nics).filter(n -> n.statedGBps() != null).findFirst()
                .orElse(Nics.UNKNOWN).rateGBps(network);
    }

    /** What a member states of its NICs: the flags or its log first, then its bundled dataset's metadata. */
    private static Nics nics(CalibrationInput m) {
        String id = m.sweep().provenance() == null ? null : m.sweep().provenance().datasetId();
        Nics metadata = id == null ? Nics.UNKNOWN
                : DatasetCatalog.bundled().find(id).map(d -> d.metadata().nics()).orElse(Nics.UNKNOWN);
        return m.nics().orElse(metadata);
    }

    private static String commonAlgo(List<CalibrationInput> members) {
        Set<String> algos = new LinkedHashSet<>();
        members.forEach(m -> algos.add(Objects.toString(m.forcedAlgo(), "")));
        return algos.size() == 1 && !algos.contains("") ? algos.iterator().next() : null;
    }

    private static List<String> unionFlags(List<CalibrationInput> members) {
        Set<String> flags = new LinkedHashSet<>();
        members.forEach(m -> flags.addAll(m.flags()));
        return List.copyOf(flags);
    }
}
