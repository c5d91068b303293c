package org.ncclharness.harness.figure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.envelope.AlgorithmChoices;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.model.NcclBaseline;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.DeferredCalibration;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.calibrate.SingleTierCalibrator;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.model.TwoTierForm;

/**
 * A calibrated input as a figure series: its points on the half the fit used, each fitted model as a
 * {@link ModelCurve}, β_phys as the dashed limit and the in-network-reduction flag in the legend. One branch per
 * entry kind: a single-tier entry draws calibrate's single-tier fits (A, B, B+beta, naive, envelope), a two-tier
 * or joint entry its two-tier forms at this run's configuration, a deferred entry its points alone. NCCL's tuner
 * estimate ({@value #NCCL}) is no calibration: the caller sets it up and it is drawn beside any entry.
 */
public final class CalibratedSeries {

    /** NCCL's own tuner model: an estimate from NCCL's constants, never fitted. */
    public static final String NCCL = "nccl";
    /** The better of the two two-tier forms (the one a prediction uses). */
    public static final String TWO_TIER = "two-tier";
    /** The legend's mark of the model calibrate picked. */
    private static final String PICKED = " (the model picked)";
    private static final List<String> FORMS = Stream.of(TwoTierForm.values()).map(TwoTierForm::id).toList();
    /** Every name {@code plot --model} accepts, in help order. */
    public static final List<String> MODELS = Stream.of(SingleTierCalibrator.MODELS.stream(),
            Stream.of(TwoTierCalibrator.ALGORITHMS, NCCL, TWO_TIER), FORMS.stream()).flatMap(s -> s).toList();

    private CalibratedSeries() {
    }

    /**
     * The series, and every model asked for that could not be drawn with the reason.
     *
     * @param notDrawn model name → one line for the user
     */
    public record Drawn(FigureSeries series, Map<String, String> notDrawn) {
        public Drawn {
            notDrawn = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(notDrawn));
        }
    }

    /**
     * @param models the models to draw, by name, in this order; empty for every fitted one
     */
    public static FigureSeries of(Sweep sweep, CalibrationEntry entry, List<String> models) {
        return draw(sweep, entry, null, models).series();
    }

    /**
     * @param nccl   NCCL's tuner estimate for this run, null when {@value #NCCL} is not asked for
     * @param models the models to draw, by name ({@link #MODELS}), in this order; empty for every fitted one
     */
    public static Drawn draw(Sweep sweep, CalibrationEntry entry, NcclBaseline nccl, List<String> models) {
        FigureSeries base;
        List<String> names;
        if (entry instanceof SingleTierCalibration s) {
            base = singleTierBase(sweep, s);
            names = models.isEmpty() ? s.fits().stream().map(Fit::name).toList() : models;
        } else if (entry instanceof TwoTierCalibration t) {
            base = networkLimit(FigureSeries.of(sweep, halfOf(sweep, t)), t);
            // the family predictions use first, then the others fitted
            names = models.isEmpty() ? Stream.concat(Stream.of(t.choice().picked()), Stream.concat(
                    t.protocolFits().stream().map(Fit::name), FORMS.stream())).distinct().toList() : models;
        } else {
            base = FigureSeries.of(sweep);
            names = models;
        }
        List<ModelCurve> curves = new ArrayList<>();
        Map<String, String> notDrawn = new LinkedHashMap<>();
        for (String name : names) {
            Optional<ModelCurve> c = name.equals(NCCL) ? ncclCurve(nccl, notDrawn) : curve(sweep, entry, name, notDrawn);
            c.ifPresent(curves::add);
        }
        if (!curves.isEmpty() && base.ranks() == null) {
            curves.forEach(c -> notDrawn.put(c.name(), "N is unknown, so its times cannot become bus bandwidth"));
            curves.clear();
        }
        return new Drawn(base.withModels(curves), notDrawn);
    }

    /** Whether the name is one of the two-tier models ({@value #TWO_TIER}, {@code hierarchical}, {@code flat-ring}). */
    public static boolean isTwoTier(String name) {
        return name.equals(TWO_TIER) || FORMS.contains(name);
    }

    /** The legend's mark for a run above line rate: which mechanism, and the numbers that show it. */
    public static String flagOf(SingleTierCalibration s) {
        return String.format(Locale.ROOT, "%s: busbw %.0f GB/s above β_phys %.0f GB/s", s.inNetworkFlag(),
                s.seed().busBwPeakGBps(), s.seed().betaPhysGBps());
    }

    private static FigureSeries singleTierBase(Sweep sweep, SingleTierCalibration s) {
        FigureSeries series = FigureSeries.of(sweep, s.placement());
        if (s.seed().betaPhysGBps() != null) {
            series = series.withLimit(new PhysicalLimit(s.interconnect(), s.seed().betaPhysGBps()));
        }
        return s.inNetworkFlag() == null ? series : series.withFlags(List.of(flagOf(s)));
    }

    /**
     * Across domains the ring's limit is the network: every NIC of a domain at its line rate, where the NIC count
     * and rate are known (--nics-per-host); busbw above it is a tree's or an in-network reduction's.
     */
    private static FigureSeries networkLimit(FigureSeries series, TwoTierCalibration t) {
        Double line = t.busBwCeilingGBps();
        if (line == null || t.inter() == null) {
            return series;
        }
        // a ring's busbw limit is the NICs' line rate; an AllToAll's is what they carry of it
        boolean ring = line.equals(t.networkLineRateGBps());
        FigureSeries limited = series.withLimit(new PhysicalLimit(t.inter() + " x " + t.nicsPerDomain()
                + " NICs" + (ring ? "" : " (" + t.collective().ncclName() + ")"), line));
        return t.busBwAboveNetworkLineRateGBps().isEmpty() ? limited : limited.withFlags(List.of(String.format(
                Locale.ROOT, "busbw %.0f GB/s above the network's %.0f GB/s: %s",
                t.busBwAboveNetworkLineRateGBps().getAsDouble(), line, t.collective().reduces()
                        ? "a tree or an in-network reduction" : "more or faster NICs than stated")));
    }

    /** One calibrated model of the entry, or why it has none by that name (into {@code notDrawn}). */
    private static Optional<ModelCurve> curve(Sweep sweep, CalibrationEntry entry, String name,
                                              Map<String, String> notDrawn) {
        boolean twoTierName = isTwoTier(name);
        String why;
        if (entry instanceof SingleTierCalibration s) {
            if (!twoTierName) {
                Optional<Fit> f = s.fit(name);
                if (f.isPresent()) {
                    // marked as a multi-domain entry's pick is: the model calibrate's table and predict use
                    return Optional.of(new ModelCurve(name + (name.equals(s.best()) ? PICKED : ""), f.get()::timeUs,
                            AlgorithmChoices.switches(f.get().model(), f.get().theta(), sizes(sweep))));
                }
                why = s.unavailable().getOrDefault(name, "not fitted");
            } else {
                why = "a single-domain run: the two-tier models are for runs across NVLink domains";
            }
        } else if (entry instanceof TwoTierCalibration t) {
            if (twoTierName) {
                Optional<ModelCurve> c = twoTierCurve(sweep, t, name);
                if (c.isPresent()) {
                    return c;
                }
                notDrawn.put(name, TwoTierCalibrator.formsAbsent(t.collective()).orElse("not fitted"));
                return Optional.empty();
            }
            Optional<Fit> f = t.protocolFit(name);
            if (f.isPresent()) {
                return Optional.of(protocolCurve(sweep, t, f.get()));
            }
            why = "not fitted to this multi-domain run (it has: " + String.join(", ", Stream.concat(
                    t.protocolFits().stream().map(Fit::name), Stream.of(TWO_TIER)).toList()) + ")";
        } else if (entry instanceof DeferredCalibration d) {
            why = d.reason() + (DeferredCalibration.TWO_TIER.equals(d.awaiting()) && !twoTierName
                    ? "; --model two-tier draws that fit" : "");
        } else {
            why = "a " + entry.kind() + " entry has no curve to draw";
        }
        notDrawn.put(name, why);
        return Optional.empty();
    }

    private static Optional<ModelCurve> ncclCurve(NcclBaseline nccl, Map<String, String> notDrawn) {
        if (nccl == null || nccl.model().isEmpty()) {
            notDrawn.put(NCCL, nccl == null ? "no NCCL estimate was set up for this input"
                    : String.join("; ", nccl.notes()));
            return Optional.empty();
        }
        NcclTunerModel m = nccl.model().get();
        double[] none = new double[0];
        return Optional.of(new ModelCurve("nccl (NCCL " + m.version() + " tuner estimate, not fitted)",
                b -> m.timeUs(b, none)));
    }

    /**
     * {@value #TWO_TIER}: the better form; {@code hierarchical}, {@code flat-ring}: that form; empty where the entry
     * has no forms (a collective other than AllReduce).
     */
    private static Optional<ModelCurve> twoTierCurve(Sweep sweep, TwoTierCalibration t, String name) {
        return (name.equals(TWO_TIER) ? t.best() : t.fit(TwoTierForm.byId(name).orElseThrow()))
                .map(fit -> twoTierCurve(sweep, t, name, fit));
    }

    private static ModelCurve twoTierCurve(Sweep sweep, TwoTierCalibration t, String name, TwoTierFit fit) {
        TwoTierCostModel m = new TwoTierCostModel(fit.form(), configOf(sweep, t), t.fabric().betaNvGBps(),
                t.fabric().hops());
        double[] theta = TwoTierCostModel.theta(fit.params());
        String label = "two-tier " + fit.form().id() + (name.equals(TWO_TIER)
                ? t.better().isPresent() ? " (the better form)" : " (forms within 1 %, lower RMSPE)" : "");
        return new ModelCurve(label, b -> m.timeUs(b, theta));
    }

    /** A protocol-aware family of a multi-domain entry, at this run's configuration (a joint entry's θ holds at all). */
    private static ModelCurve protocolCurve(Sweep sweep, TwoTierCalibration t, Fit f) {
        CostModel m = f.model().at(Scale.of(configOf(sweep, t)));
        double[] theta = f.theta();
        String label = f.name() + (f.name().equals(t.choice().picked()) ? PICKED : "");
        return new ModelCurve(label, b -> m.timeUs(b, theta), AlgorithmChoices.switches(m, theta, sizes(sweep)));
    }

    /** The run's sizes, ascending: where an envelope's picks are read. */
    private static double[] sizes(Sweep sweep) {
        return sweep.rows().stream().mapToDouble(r -> r.sizeBytes()).distinct().sorted().toArray();
    }

    /** The run of the entry this sweep is (a joint entry holds several), else the first. */
    private static int runOf(Sweep sweep, TwoTierCalibration t) {
        Hardware hw = sweep.hardware();
        for (int i = 0; i < t.runs().size(); i++) {
            TwoTierConfig c = t.runs().get(i).config();
            if (hw != null && hw.domains() != null && hw.domainSize() != null && c.domains() == hw.domains()
                    && c.gpusPerDomain() == hw.domainSize()) {
                return i;
            }
        }
        return 0;
    }

    private static TwoTierConfig configOf(Sweep sweep, TwoTierCalibration t) {
        return t.runs().get(runOf(sweep, t)).config();
    }

    private static Placement halfOf(Sweep sweep, TwoTierCalibration t) {
        return t.halves().get(runOf(sweep, t));
    }
}
