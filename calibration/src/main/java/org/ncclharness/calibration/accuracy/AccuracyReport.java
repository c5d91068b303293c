package org.ncclharness.calibration.accuracy;

import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.RunBandwidthCeiling;
import org.ncclharness.calibration.calibrate.FixedEstimator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.accuracy.HeldOut.Score;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.SingleTierEstimator;
import org.ncclharness.calibration.fit.SingleTierEstimator.BetaChoice;
import org.ncclharness.calibration.fit.SingleTierEstimator.Choice;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.LatencyRule;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.RingSteps;
import org.ncclharness.calibration.model.RingTree;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.NcclBaseline;
import org.ncclharness.calibration.fit.envelope.AlgorithmEnvelopeEstimator;
import org.ncclharness.calibration.fit.envelope.JointAlgorithmFit;
import org.ncclharness.calibration.fit.envelope.NearestConfigurations;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.calibrate.Workers;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;

/**
 * The accuracy of every model on every bundled dataset with times: in-sample and leave-one-out RMSPE, and the
 * held-out protocols of {@link HeldOut}. Deterministic: the same datasets give the same digits.
 *
 * @param datasets   one entry per dataset scored, catalog order
 * @param skipped    datasets with no usable times, with the reason
 * @param crossScale one entry per joint group and model
 * @param glitches   per dataset, the sizes left out as measurement glitches (as calibrate leaves them out)
 */
public record AccuracyReport(List<DatasetScores> datasets, List<Skipped> skipped, List<CrossScale> crossScale,
                             List<Crossover> crossovers, Map<String, List<Long>> glitches) {

    /**
     * Ring against Tree for one system and N (docs/calibration.md): the ideal forms with method B's per-step latency
     * L = α/(2(N−1)) and β_eff, binary tree, root links as fast as the ring's; and NCCL's own tables' crossover.
     */
    public record Crossover(String id, int ranks, double stepUs, double betaGBps, OptionalDouble idealBytes,
                            OptionalDouble ncclBytes, List<OptionalDouble> idealAtScale) {
    }

    /** The larger N the crossover is also predicted at (per-step L and β carried over). */
    public static final List<Integer> CROSSOVER_SCALES = List.of(64, 1024);

    /** A dataset left out of the report. */
    public record Skipped(String id, String reason) {
    }

    /** One dataset: its configuration and one {@link ModelScores} per model. */
    public record DatasetScores(String id, int ranks, int points, boolean multiDomain, List<ModelScores> models) {
        public Optional<ModelScores> model(String name) {
            return models.stream().filter(m -> m.model().equals(name)).findFirst();
        }
    }

    /**
     * One model on one dataset: RMSPE of the fit on all points (null with a reason when the model does not apply),
     * leave-one-out (per band where the fit reports bands, else overall only; empty with a note when not scored),
     * the held-out scores, and for the envelope its switch points; k its free parameters.
     */
    public record ModelScores(String model, int k, Rmspe inSample, Rmspe leaveOneOut, OptionalDouble leaveOneOutPct,
                              String leaveOneOutNote, String reason, Score interleaved, Score extrapolation,
                              List<ProtocolEnvelopeModel.SwitchPoint> switchPoints) {
        public boolean applies() {
            return inSample != null;
        }

        static ModelScores none(String model, String reason) {
            return new ModelScores(model, 0, null, null, OptionalDouble.empty(), null, reason, null, null, List.of());
        }
    }

    /**
     * One cross-scale score: a model fitted on {@code fittedOn}, predicting {@code predicted}; beside it the
     * predicted run's floor, the best in-sample RMSPE of any model fitted on that run itself with at least 2k
     * points (empty when none has).
     */
    public record CrossScale(String group, String model, String fittedOn, int fittedRanks, String predicted,
                             int predictedRanks, Score score, OptionalDouble floorPct) {
        /** The score over the floor (empty where either is missing). */
        public OptionalDouble ratio() {
            return score.scored() && floorPct.isPresent() && floorPct.getAsDouble() > 0
                    ? OptionalDouble.of(score.pct() / floorPct.getAsDouble()) : OptionalDouble.empty();
        }
    }

    public static final String CROSS_ALPHA_BETA = "alpha-beta";
    /** The algorithm envelope fitted on the nearest smaller configurations only ({@link #algorithmsNearest}). */
    public static final String CROSS_ALGORITHMS_NEAREST = NearestConfigurations.MODEL;

    public static AccuracyReport bundled() {
        return of(DatasetCatalog.bundled(), HardwareFacts.bundled());
    }

    public static AccuracyReport of(DatasetCatalog catalog, HardwareFacts facts) {
        List<DatasetScores> scored = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        List<Crossover> crossovers = new ArrayList<>();
        // Glitches are left out as calibrate leaves them out by default (GlitchExclusion): of the fits and of the
        // held-out points alike, so no model is scored on a spike no smooth model should follow.
        Map<String, Dataset> clean = new LinkedHashMap<>();
        Map<String, List<Long>> glitches = new LinkedHashMap<>();
        for (Dataset d : catalog.all()) {
            GlitchExclusion g = GlitchExclusion.of(input(d), false);
            List<Long> sizes = g.excluded() ? g.glitches().stream().map(x -> (long) x.bytes()).toList() : List.of();
            clean.put(d.id(), sizes.isEmpty() ? d : new Dataset(d.metadata(), d.rows().stream()
                    .filter(r -> !sizes.contains(r.sizeBytes())).toList(), d::rawLines));
            if (!sizes.isEmpty()) {
                glitches.put(d.id(), sizes);
            }
        }
        List<CalibrationInput> inputs = clean.values().stream().map(AccuracyReport::input).toList();
        TwoTierScores twoTier = new TwoTierScores(new TwoTierCalibrator(facts), inputs);
        // the datasets are scored independently: on the calibration's workers, gathered in catalog order
        List<Dataset> datasets = List.copyOf(clean.values());
        List<OneDataset> each = Workers.fromSystem().run(() -> datasets.parallelStream()
                .map(d -> score(d, facts, twoTier)).toList());
        for (OneDataset o : each) {
            o.skipped().ifPresent(skipped::add);
            o.scores().ifPresent(scored::add);
            o.crossover().ifPresent(crossovers::add);
        }
        return new AccuracyReport(scored, skipped, crossScale(clean, facts, twoTier, scored), crossovers, glitches);
    }

    /** One dataset's part of the report: skipped, or scored with its crossover where it has one. */
    private record OneDataset(Optional<Skipped> skipped, Optional<DatasetScores> scores, Optional<Crossover> crossover) {
    }

    private static OneDataset score(Dataset d, HardwareFacts facts, TwoTierScores twoTier) {
        Optional<String> why = unusable(d);
        if (why.isPresent()) {
            return new OneDataset(Optional.of(new Skipped(d.id(), why.get())), Optional.empty(), Optional.empty());
        }
        int n = d.sweep().hardware().ranks();
        FitPoints points = FitPoints.from(d.sweep(), n);
        List<ModelScores> models = new ArrayList<>();
        List<Candidate> candidates = Candidates.forDataset(d, points, facts);
        Optional<TwoTierScores.Result> two = d.metadata().multiDomain() ? Optional.of(twoTier.fit(input(d)))
                : Optional.empty();
        OneDomainEnvelope shared = OneDomainEnvelope.of(candidates);
        for (Candidate c : candidates) {
            models.add(score(c, shared.scoring(c), points, two.flatMap(t -> fittedBeside(t, c, points))));
        }
        if (d.metadata().multiDomain()) {
            models.addAll(CeilingVariants.of(candidates, models, points));
        }
        models.add(two.map(t -> twoTier(twoTier, t, input(d), points))
                .orElseGet(() -> ModelScores.none(Candidates.TWO_TIER, "single domain: no second tier")));
        return new OneDataset(Optional.empty(), Optional.of(new DatasetScores(d.id(), n, points.size(),
                d.metadata().multiDomain(), models)), crossover(d.id(), n, candidates, points));
    }

    private static Optional<String> unusable(Dataset d) {
        if (d.metadata().hasFlag("mixed-configurations")) {
            return Optional.of("rows from several configurations (mixed-configurations)");
        }
        Integer n = d.sweep().hardware().ranks();
        if (n == null || n < 2) {
            return Optional.of("N unknown");
        }
        if (FitPoints.from(d.sweep(), n).size() < 2) {
            return Optional.of("fewer than 2 points with a time or busbw");
        }
        return Optional.empty();
    }

    /** The crossover of an AllReduce whose data determine method B's ℓ_link and β. */
    private static Optional<Crossover> crossover(String id, int n, List<Candidate> candidates, FitPoints points) {
        Optional<SingleTierEstimator> b = candidates.stream()
                .filter(c -> c.model().equals(Candidates.METHOD_B) && c.estimator() instanceof SingleTierEstimator)
                .map(c -> (SingleTierEstimator) c.estimator())
                .filter(e -> e.latency() == Choice.FITTED && e.beta() == BetaChoice.SEED)
                .filter(e -> e.model().collective() == Collective.ALL_REDUCE).findFirst();
        if (b.isEmpty()) {
            return Optional.empty();
        }
        double[] theta = b.get().estimate(points);
        double step = b.get().model().alphaUs(theta) / RingSteps.of(Collective.ALL_REDUCE, n);
        OptionalDouble ideal = new RingTree(n, 2, theta[1], theta[1], step).crossoverBytes();
        OptionalDouble nccl = candidates.stream().filter(c -> c.estimator() != null)
                .map(c -> ModelDetails.ncclCrossoverBytes(c.estimator().model())).filter(OptionalDouble::isPresent)
                .findFirst().orElse(OptionalDouble.empty());
        List<OptionalDouble> scaled = CROSSOVER_SCALES.stream()
                .map(m -> new RingTree(m, 2, theta[1], theta[1], step).crossoverBytes()).toList();
        return Optional.of(new Crossover(id, n, step, theta[1], ideal, nccl, scaled));
    }

    static CalibrationInput input(Dataset d) {
        return new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags());
    }

    /**
     * A candidate scored with {@code e} (its estimator, or one taking θ from fits already made:
     * {@link OneDomainEnvelope}): {@code fitted}, its fit where calibrate's entry already made it, else fitted here.
     */
    static ModelScores score(Candidate c, Estimator e, FitPoints points, Optional<Fit> fitted) {
        if (c.estimator() == null) {
            return ModelScores.none(c.model(), c.reason());
        }
        Fit fit = fitted.orElseGet(() -> Fitter.fit(e, points, List.of()));
        List<ProtocolEnvelopeModel.SwitchPoint> sw = ModelDetails.switchPoints(fit.model(), fit.theta());
        OptionalDouble loo = fit.leaveOneOut() == null ? OptionalDouble.empty() : fit.leaveOneOut().overallPct();
        return new ModelScores(c.model(), e.freeParameters().size(), fit.inSample(), fit.leaveOneOut(), loo, fit.leaveOneOutNote(), null,
                HeldOut.interleaved(e, points), HeldOut.extrapolation(e, points), sw);
    }

    /**
     * The fit of {@code c} that calibrate's two-tier entry for the run already holds: it fits the protocol-aware
     * families beside the forms, the envelope and the algorithm envelope, each with its leave-one-out, and where
     * that is this candidate's estimator (the same kind and model) on the same sizes, fitting it again here would
     * give the same fit at the same cost. Empty where the entry fitted another (other hops, another configuration).
     */
    static Optional<Fit> fittedBeside(TwoTierScores.Result two, Candidate c, FitPoints points) {
        Estimator e = c.estimator();
        boolean sameKind = e instanceof ProtocolEnvelopeEstimator p ? p.fitEfficiency()
                : e instanceof AlgorithmEnvelopeEstimator;
        if (two.calibration() == null || !sameKind) {
            return Optional.empty();
        }
        return two.calibration().protocolFit(c.model()).filter(f -> f.model().equals(e.model())
                && f.freeParameters().equals(e.freeParameters())
                && Arrays.equals(f.residuals().stream().mapToDouble(Residual::bytes).toArray(), points.bytes()));
    }

    /** The two-tier fit's better form; leave-one-out overall only (the two-tier fit reports no bands for it). */
    private static ModelScores twoTier(TwoTierScores t, TwoTierScores.Result r, CalibrationInput in,
                                       FitPoints points) {
        if (r.calibration() == null) {
            return ModelScores.none(Candidates.TWO_TIER, r.reason());
        }
        TwoTierFit best = r.calibration().best().orElseThrow();
        String note = best.looRmspePct().isPresent() ? null : "not scored: 5 free parameters need at least 18 points,"
                + " the data has " + points.size();
        return new ModelScores(Candidates.TWO_TIER, TwoTierScores.FREE_PARAMETERS, best.rmspe(), null, best.looRmspePct(), note, null,
                t.interleaved(in, points), t.extrapolation(in, points), List.of());
    }

    private static List<CrossScale> crossScale(Map<String, Dataset> clean, HardwareFacts facts, TwoTierScores twoTier,
                                               List<DatasetScores> scored) {
        List<CrossScale> out = new ArrayList<>();
        for (CrossScaleGroups.Group g : CrossScaleGroups.bundled()) {
            List<Dataset> members = new ArrayList<>();
            g.datasets().forEach(id -> Optional.ofNullable(clean.get(id)).ifPresent(members::add));
            if (members.size() < 2) {
                continue;
            }
            Dataset from = members.get(members.size() - 2);
            Dataset to = members.get(members.size() - 1);
            int nFrom = from.sweep().hardware().ranks();
            int nTo = to.sweep().hardware().ranks();
            FitPoints fitOn = FitPoints.from(from.sweep(), nFrom);
            FitPoints predict = FitPoints.from(to.sweep(), nTo);
            String name = g.name();
            OptionalDouble floor = floor(scored, to.id());
            // Per-hop parameters carry over; hops are the same on both sides, so one hop per step is used.
            SingleTierModel ab = new SingleTierModel(from.collective(), nFrom, 1, LatencyRule.PIPELINE);
            Estimator alphaBeta = new SingleTierEstimator(CROSS_ALPHA_BETA, "alpha-beta, l_link and beta fitted", ab,
                    Choice.FITTED, 0, BetaChoice.FITTED, 0, null, null);
            out.add(new CrossScale(name, CROSS_ALPHA_BETA, from.id(), nFrom, to.id(), nTo,
                    HeldOut.crossScale(alphaBeta, fitOn, m -> m.at(Scale.gpus(nTo)), predict), floor));
            Estimator env = ProtocolEnvelopeEstimator.fitted(Candidates.ENVELOPE, "",
                    new ProtocolEnvelopeModel(from.collective(), nFrom, 1))
                    .withCeiling(RunBandwidthCeiling.ceilingGBps(from, facts));
            out.add(new CrossScale(name, Candidates.ENVELOPE, from.id(), nFrom, to.id(), nTo,
                    HeldOut.crossScale(env, fitOn, m -> m.at(Scale.gpus(nTo)), predict), floor));
            NcclBaseline nccl = NcclBaseline.of(to.collective(), to.sweep().hardware(), to.metadata().ncclVersion(),
                    to.metadata().nicsPerHost(), to.metadata().nicGbps());
            Score ns = nccl.model().<Score>map(m -> HeldOut.crossScale(new FixedEstimator(Candidates.NCCL, "", m),
                    fitOn, x -> m, predict)).orElse(Score.none(String.join("; ", nccl.notes())));
            out.add(new CrossScale(name, Candidates.NCCL, "(not fitted)", nTo, to.id(), nTo, ns, floor));
            List<Dataset> smaller = members.subList(0, members.size() - 1);
            Score tt = twoTier.crossScale(name + " (smaller configurations)",
                    smaller.stream().map(AccuracyReport::input).toList(), input(to), predict);
            out.add(new CrossScale(name, Candidates.TWO_TIER, String.join(" + ", smaller.stream().map(Dataset::id)
                    .toList()), nFrom, to.id(), nTo, tt, floor));
            out.add(algorithmsAcross(name, smaller, to, facts, predict, floor));
            out.add(algorithmsNearest(name, smaller, to, facts, predict, floor));
        }
        return out;
    }

    /**
     * The algorithm envelope fitted on the fewest of the smaller configurations across domains, nearest the
     * predicted one, that give its 2k points: the largest alone where it has them (as calibrate fits one run),
     * else with the next smaller ones until they do; all of them where even that falls short (then as
     * {@link #algorithmsAcross}). Beside the joint fit of all of them because one θ over many scales must also carry
     * regimes the predicted run no longer has (a 2-node tree's bandwidth, the small scales' latencies); which of the
     * two a group is scored with, the other clusters' groups decide ({@link LeaveOneClusterOut}).
     */
    private static CrossScale algorithmsNearest(String group, List<Dataset> smaller, Dataset to, HardwareFacts facts,
                                                FitPoints predict, OptionalDouble floor) {
        List<AlgorithmEnvelopeModel> models = jointModels(smaller, to, facts);
        List<Integer> nearest = NearestConfigurations.of(JointAlgorithmFit.fittedRuns(models),
                r -> FitPoints.from(smaller.get(r).sweep(), smaller.get(r).sweep().hardware().ranks()).size(),
                runs -> AlgorithmEnvelopeEstimator.freeParameters(runs.stream().map(models::get).toList()).size());
        return fittedOn(group, CROSS_ALGORITHMS_NEAREST, nearest.stream().map(smaller::get).toList(), to, facts,
                predict, floor);
    }

    /**
     * The algorithm envelope fitted jointly on the smaller configurations ({@link JointAlgorithmFit#fittedRuns}:
     * those across domains), moved to the largest.
     */
    private static CrossScale algorithmsAcross(String group, List<Dataset> smaller, Dataset to, HardwareFacts facts,
                                               FitPoints predict, OptionalDouble floor) {
        List<AlgorithmEnvelopeModel> models = jointModels(smaller, to, facts);
        return fittedOn(group, Candidates.ALGORITHMS, JointAlgorithmFit.fittedRuns(models).stream().map(smaller::get)
                .toList(), to, facts, predict, floor);
    }

    /** The algorithm envelope fitted jointly on {@code fitted}, moved to {@code to}, as one cross-scale row. */
    private static CrossScale fittedOn(String group, String model, List<Dataset> fitted, Dataset to, HardwareFacts facts,
                                       FitPoints predict, OptionalDouble floor) {
        return new CrossScale(group, model, String.join(" + ", fitted.stream().map(Dataset::id).toList()),
                fitted.get(fitted.size() - 1).sweep().hardware().ranks(), to.id(), to.sweep().hardware().ranks(),
                algorithmsAcross(fitted, to, facts, predict), floor);
    }

    /** The predicted run's algorithm envelope at each smaller run's configuration (its hops and candidates). */
    private static List<AlgorithmEnvelopeModel> jointModels(List<Dataset> smaller, Dataset to, HardwareFacts facts) {
        AlgorithmEnvelopeModel target = Candidates.algorithms(to, facts, Optional.empty()).model();
        return smaller.stream().map(d -> target.at(Scale.of(Candidates.algorithms(d, facts, Optional.empty()).model()
                .config()))).toList();
    }

    private static Score algorithmsAcross(List<Dataset> smaller, Dataset to, HardwareFacts facts, FitPoints predict) {
        AlgorithmEnvelopeModel target = Candidates.algorithms(to, facts, Optional.empty()).model();
        List<AlgorithmEnvelopeModel> models = jointModels(smaller, to, facts);
        List<FitPoints> points = smaller.stream().map(d -> FitPoints.from(d.sweep(), d.sweep().hardware().ranks()))
                .toList();
        if (models.stream().noneMatch(AlgorithmEnvelopeModel::multiDomain)) {
            // one domain says nothing of the network: l_net, the tree factor and the slower tier's bandwidth
            return Score.none("the smaller configurations are all one domain: the network's terms are not determined");
        }
        int n = points.stream().mapToInt(FitPoints::size).sum();
        // the joint fit's k: runs at several configurations can tell apart what one cannot (l_net beside Ring alone)
        int min = 2 * AlgorithmEnvelopeEstimator.freeParameters(models).size();
        if (n < min) {
            return Score.none(n + " points to fit, " + min + " needed");
        }
        // one β under every fitted run's ceiling, as calibrate --joint holds it
        List<Double> ceilings = smaller.stream().map(d -> Candidates.algorithms(d, facts, Optional.empty())
                .ceilingGBps()).toList();
        return Score.of(target, AlgorithmEnvelopeEstimator.estimateJoint(models, points, ceilings), predict);
    }

    /** The best in-sample RMSPE on a run among the models with at least 2k points there. */
    private static OptionalDouble floor(List<DatasetScores> scored, String id) {
        return scored.stream().filter(d -> d.id().equals(id)).flatMap(d -> d.models().stream()
                        .filter(m -> m.applies() && m.k() > 0 && d.points() >= 2 * m.k()
                                && m.inSample().overallPct().isPresent()))
                .mapToDouble(m -> m.inSample().overallPct().getAsDouble()).min();
    }
}
