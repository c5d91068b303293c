package org.ncclharness.calibration.predict;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.envelope.NearestConfigurations;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.LatencyRule;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationFile;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.calibrate.SingleTierCalibrator;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.calibrate.Workers;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;

/**
 * Where {@code predict} takes its model from: a calibration report ({@code calibrate --json}), a bundled dataset
 * calibrated on the fly, the bundled calibrations of one interconnect, or the raw ring formula. Every source says
 * what it is, in the {@link PredictionModel#source()} line of the output.
 */
public final class PredictionSources {

    /** The name of the raw ring formula T = 2(N−1)·(M/(N·B) + L). */
    public static final String RING_FORMULA = "ring formula";
    private static final String ALPHA_BETA_FITTED = SingleTierCalibrator.METHOD_B_FITTED_BETA;
    private static final String TWO_TIER = "two-tier";

    private PredictionSources() {
    }

    /** A model of a {@code calibrate --json} report, rebuilt exactly as it was fitted. */
    public static PredictionModel calibration(Path file, String datasetId, String modelName) {
        return calibration(file, datasetId, modelName, null, null, true);
    }

    /**
     * The model of a calibration's entry for a prediction at {@code gpus} GPUs or {@code nodes} domains: without a
     * model's name, above a joint entry's largest run its {@link NearestConfigurations#MODEL} fit where it has one
     * (docs/model-accuracy.md ranks it first cross-scale), unless {@code allRuns}; else the entry's pick.
     *
     * @param gpus  N predicted at, null for the calibrated N (or N from {@code nodes})
     * @param nodes domains predicted at, null for the calibrated ones
     */
    public static PredictionModel calibration(Path file, String datasetId, String modelName, Integer gpus,
                                              Integer nodes, boolean allRuns) {
        CalibrationFile cf = CalibrationFile.read(file);
        CalibrationFile.Entry e;
        // without --dataset: the one entry with a model (a log's other tables may not have been calibrated)
        List<CalibrationFile.Entry> modelled = cf.datasets().stream().filter(x -> !x.models().isEmpty()).toList();
        if (datasetId != null) {
            e = cf.dataset(datasetId);
        } else if (cf.datasets().size() == 1 || modelled.size() == 1) {
            e = modelled.size() == 1 ? modelled.get(0) : cf.datasets().get(0);
        } else if (modelled.isEmpty()) {
            throw new InputException(file.toString(), 0, "none of the calibration's " + cf.datasets().size()
                    + " datasets has a calibrated model (calibrate said why for each); calibrate a sweep with more"
                    + " sizes");
        } else {
            throw new InputException(file.toString(), 0, "the calibration holds " + modelled.size() + " datasets"
                    + " with a model: pick one with " + Advice.usage(Setting.DATASET) + " ("
                    + modelled.stream().map(CalibrationFile.Entry::id)
                    .limit(CalibrationFile.IDS_SHOWN).collect(Collectors.joining(", ")) + (modelled.size() <= CalibrationFile.IDS_SHOWN ? ""
                    : " and " + (modelled.size() - CalibrationFile.IDS_SHOWN) + " more; jq -r '.datasets[] | select(.models | length"
                    + " > 0) | .id' on the file lists all " + modelled.size()) + ")");
        }
        if (e.models().isEmpty()) {
            throw new InputException(file.toString(), 0, "dataset " + e.id() + " has no calibrated model ("
                    + e.kind() + (e.reason() == null ? "" : ": " + e.reason()) + ")");
        }
        Optional<CalibrationFile.CalibratedModel> nearest = modelName != null || allRuns ? Optional.empty()
                : e.model(NearestConfigurations.MODEL).filter(x -> aboveLargest(e, gpus, nodes));
        CalibrationFile.CalibratedModel m = nearest.isPresent() ? nearest.get()
                : modelName == null ? e.bestModel().orElseThrow()
                : e.model(modelName).orElseThrow(() -> new InputException(file.toString(), 0, "dataset " + e.id()
                        + " has no model " + modelName + "; it has: "
                        + e.models().stream().map(CalibrationFile.CalibratedModel::name).collect(Collectors.joining(", "))));
        // the line rate the calibration judged the run against, as its report carries it: recomputed from the
        // fabric's name it lost the NIC speed of fabrics that have no fixed one (EFA)
        List<String> notes = new ArrayList<>(undetermined(m));
        nearest.ifPresent(x -> notes.add(x.name() + ": " + x.description() + "; the pick on every run: "
                + Advice.name(Setting.ALL_RUNS) + " or " + Advice.with(Setting.MODEL, e.best())));
        return new PredictionModel(m.name(), m.model(), m.theta(), "calibration " + file + ", dataset " + e.id(),
                e.ranks(), e.nodes(), m.minBytes(), m.maxBytes(), e.configurations(), notes,
                e.networkLineRateGBps());
    }

    /** Whether N (given, or from the domains of the entry's size) is above every run a joint entry was fitted on. */
    private static boolean aboveLargest(CalibrationFile.Entry e, Integer gpus, Integer nodes) {
        if (e.configurations().size() < 2 || gpus == null && nodes == null) {
            return false;
        }
        int largest = e.configurations().stream().mapToInt(TwoTierConfig::ranks).max().orElseThrow();
        long ranks = gpus != null ? gpus : (long) nodes * e.configurations().get(0).gpusPerDomain();
        return ranks > largest;
    }

    /** A note naming the parameters the data did not determine: the prediction rests on the fit's bounds there. */
    private static List<String> undetermined(CalibrationFile.CalibratedModel m) {
        if (m.undetermined().isEmpty()) {
            return List.of();
        }
        return List.of("the calibration's data do not determine " + String.join(", ", m.undetermined()) + " of "
                + m.name() + ": these predictions rest on the fit's bounds there, not on measurements (calibrate "
                + Advice.name(Setting.VERBOSE) + " shows each parameter's range)");
    }

    /**
     * The models of a bundled dataset, fitted now as calibrate fits them; the named one, else on a multi-domain run
     * the family calibrate picks, else the lowest leave-one-out RMSPE.
     */
    public static PredictionModel dataset(String id, String modelName, HardwareFacts facts) {
        Dataset d = DatasetCatalog.bundled().find(id).orElseThrow(() -> new InputException(Setting.DATASET,
                "no bundled dataset " + id + "; list them with: harness.jar datasets"));
        Integer n = d.sweep().hardware().ranks();
        if (n == null || n < 2) {
            throw new InputException(Setting.DATASET, "dataset " + id + " does not state its GPU count");
        }
        // calibrated as calibrate calibrates it: measurement glitches left out
        CalibrationInput in = GlitchExclusion.of(input(d), false).fitted();
        FitPoints points = FitPoints.from(in.sweep(), n);
        if (points.size() < 2) {
            throw new InputException(Setting.DATASET, "dataset " + id + " has fewer than 2 usable points");
        }
        Scored twoTier = null;
        Scored picked = null;
        Double line = null;
        String basis = "lowest leave-one-out RMSPE";
        if (d.metadata().multiDomain()) {
            CalibrationEntry e = new TwoTierCalibrator(facts).calibrate(in, DatasetCatalog.bundled().all()
                    .stream().map(PredictionSources::input).toList());
            if (e instanceof TwoTierCalibration t) {
                line = t.networkLineRateGBps();
                Optional<TwoTierFit> best = t.best();
                if (best.isPresent()) {
                    TwoTierCostModel m = new TwoTierCostModel(best.get().form(), new TwoTierConfig(
                            d.sweep().hardware().domains(), d.sweep().hardware().domainSize()), t.fabric().betaNvGBps(),
                            t.fabric().hops());
                    twoTier = new Scored(TWO_TIER, m, TwoTierCostModel.theta(best.get().params()),
                            best.get().comparisonPct());
                }
                // the family calibrate picks for this run, fitted as calibrate fits it
                picked = t.protocolFit(t.choice().picked())
                        .map(f -> new Scored(f.name(), f.model(), f.theta(), score(f))).orElse(twoTier);
                basis = "as calibrate picks: " + t.choice().basis();
            }
        }
        List<Scored> scored = new ArrayList<>();
        List<String> names = new ArrayList<>();
        // the other candidates (each with its leave-one-out refits) only where a name or the default needs them
        if (modelName != null || picked == null) {
            for (Candidate c : Candidates.forDataset(d, points, facts)) {
                if (c.estimator() != null) {
                    Fit f = Fitter.fit(c.estimator(), points, List.of());
                    scored.add(new Scored(f.name(), f.model(), f.theta(), score(f)));
                    names.add(c.model());
                }
            }
            if (twoTier != null) {
                scored.add(twoTier);
                names.add(TWO_TIER);
            }
        }
        Scored chosen;
        if (modelName == null && picked != null) {
            chosen = picked;
        } else if (modelName != null) {
            chosen = scored.stream().filter(f -> f.name().equals(modelName)).findFirst().orElseThrow(() ->
                    new InputException(Setting.MODEL, "dataset " + id + " has no model " + modelName + "; it has: "
                            + String.join(", ", names)));
        } else {
            chosen = scored.stream().min(Comparator.comparingDouble(Scored::pct)).orElseThrow();
        }
        int nodes = d.sweep().hardware().hosts() == null ? 1 : d.sweep().hardware().hosts();
        String source = sourceOf(chosen.model(), "dataset " + id + " (calibrated now"
                + (modelName == null ? ", " + basis : "") + ")", "NCCL's tuner constants at the configuration of dataset "
                + id + " (an estimate, not fitted)");
        return new PredictionModel(chosen.name(), chosen.model(), chosen.theta(), source, n, nodes,
                points.bytes()[0], points.bytes()[points.largest()], List.of(), List.of(), line);
    }

    /** Where a model of a dataset came from: {@code fitted} for a model fitted now, {@code estimate} for NCCL's tables. */
    private static String sourceOf(CostModel model, String fitted, String estimate) {
        return model.accept(new OtherwiseVisitor<String>() {
            @Override
            public String ncclTuner(NcclTunerModel m) {
                return estimate;
            }

            @Override
            protected String otherwise(CostModel m) {
                return fitted;
            }
        });
    }

    /** A candidate model with the score the default choice ranks by (leave-one-out where scored, else in-sample). */
    private record Scored(String name, CostModel model, double[] theta, double pct) {
    }

    private static CalibrationInput input(Dataset d) {
        return new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags());
    }

    private static double score(Fit f) {
        return (f.leaveOneOut() != null ? f.leaveOneOut() : f.inSample()).overallPct().orElse(Double.MAX_VALUE);
    }

    /**
     * Method B's ℓ_link and fitted β_eff borrowed from every bundled single-tier calibration of one interconnect
     * whose data determine both (the median of each), at N GPUs.
     */
    public static PredictionModel interconnect(String name, int gpus, Integer nodes, HardwareFacts facts) {
        Interconnect ic = facts.interconnectNamed(Advice.name(Setting.INTERCONNECT), name);
        SingleTierCalibrator cal = new SingleTierCalibrator(facts, CalibrationOptions.defaults())
                .only(ALPHA_BETA_FITTED);
        List<String> ids = new ArrayList<>();
        List<Double> latency = new ArrayList<>();
        List<Double> beta = new ArrayList<>();
        int hops = facts.topologyOf(ic).hopsPerStep();
        // only the runs of this interconnect are read, and only the model borrowed is fitted: the
        // hardware their metadata states says which runs, as the calibration itself would name it
        List<Dataset> runs = DatasetCatalog.bundled().all().stream().filter(d -> SingleTierCalibrator
                .interconnectOf(d.hardware(), facts).filter(i -> i.name().equals(ic.name())).isPresent()).toList();
        List<CalibrationEntry> entries = Workers.fromSystem().run(() -> runs.parallelStream().map(d -> cal.calibrate(
                new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags()))).toList());
        for (int i = 0; i < runs.size(); i++) {
            Dataset d = runs.get(i);
            CalibrationEntry e = entries.get(i);
            if (e instanceof SingleTierCalibration s && s.interconnect().equals(ic.name())
                    && s.identifiability().alpha() && s.identifiability().beta()) {
                Optional<Fit> f = s.fit(ALPHA_BETA_FITTED);
                if (f.isPresent()) {
                    ids.add(d.id());
                    latency.add(f.get().theta()[0]);
                    beta.add(f.get().theta()[1]);
                }
            }
        }
        if (ids.isEmpty()) {
            throw new InputException(Setting.INTERCONNECT, "no bundled single-tier calibration of " + ic.name()
                    + " determines both alpha and beta; use " + Advice.name(Setting.DATASET) + " or "
                    + Advice.name(Setting.CALIBRATION) + " instead");
        }
        double l = median(latency);
        double b = median(beta);
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "parameters borrowed from %d bundled calibration%s of %s (median of"
                + " each): l_link = %.4g us, beta_eff = %.4g GB/s; datasets: %s", ids.size(), ids.size() == 1 ? "" : "s",
                ic.name(), l, b, String.join(", ", ids)));
        if (nodes != null && nodes > 1) {
            notes.add(nodes + " nodes: " + ic.name() + " is one tier; the network between nodes is not in this model");
        }
        SingleTierModel m = new SingleTierModel(Collective.ALL_REDUCE, gpus, hops, LatencyRule.PIPELINE);
        return new PredictionModel(ALPHA_BETA_FITTED, m, new double[] {l, b}, "the bundled calibrations of "
                + ic.name(), null, nodes, null, null, List.of(), notes);
    }

    private static double median(List<Double> v) {
        return new Median().evaluate(v.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** T = 2(N−1)·(M/(N·B) + L): method B's form with one hop per step, ℓ = L and β_eff = B. */
    public static PredictionModel ringFormula(double bandwidthGBps, double stepUs, int gpus) {
        if (bandwidthGBps <= 0 || stepUs < 0 || gpus < 2) {
            throw new IllegalArgumentException("the ring formula needs " + Advice.name(Setting.BANDWIDTH) + " > 0, "
                    + Advice.name(Setting.STEP_LATENCY) + " >= 0 and " + Advice.name(Setting.GPU_COUNT) + " >= 2");
        }
        SingleTierModel m = new SingleTierModel(Collective.ALL_REDUCE, gpus, 1, LatencyRule.PIPELINE);
        return new PredictionModel(RING_FORMULA, m, new double[] {stepUs, bandwidthGBps}, String.format(Locale.ROOT,
                "T = 2(N-1)(M/(N*B) + L) with B = %s GB/s, L = %s us", trim(bandwidthGBps), trim(stepUs)), null, null,
                null, null, List.of(), List.of());
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
