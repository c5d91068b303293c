package org.ncclharness.harness.figure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.DeferredCalibration;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.calibration.calibrate.ModelChoice;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.calibrate.SingleTierHeadline;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.fit.SizeBand;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.model.TwoTierForm;

/**
 * {@code calibrate --report DIR}: the calibration as a page. One sortable table per model family (the single-tier
 * α-β model with the seed's columns; the multi-domain families; the runs not calibrated), the picked model and why
 * in each row; then one section per run: its views (the busbw figure with every fitted model, β_phys and the
 * residual panel), every model's score per size band, and its notes grouped by kind, folded. The text calibrate
 * prints with {@code --verbose} closes the page, folded.
 */
public final class CalibrationReportPage {

    private static final String NONE = "-";
    private static final List<String> BAND_HEADERS = java.util.stream.Stream.of(SizeBand.values())
            .map(b -> "RMSPE " + b.label() + " (%)").toList();

    /** The kinds a run's notes are grouped by, in page order; each is a type the calibration gives, never words. */
    enum NoteKind {
        FIT("How it was fitted"),
        DATA_CHECK("Data check (#wrong above 0)"),
        COLLECTIVE("The collective"),
        NOT_FITTED("Models not fitted"),
        DETERMINED("What the data determine"),
        FORMS("Two-tier forms"),
        REMARKS("Remarks on the source and the fits");

        private final String heading;

        NoteKind(String heading) {
            this.heading = heading;
        }

        static NoteKind of(org.ncclharness.calibration.measure.Note.Kind kind) {
            return switch (kind) {
                case TIME_DERIVED, FITTED_HALF -> FIT;
                case WRONG_ROWS -> DATA_CHECK;
                case COLLECTIVE_UNKNOWN -> COLLECTIVE;
                case INFO -> REMARKS;
            };
        }
    }

    private CalibrationReportPage() {
    }

    /**
     * @param inputs       the inputs in report order (entry i calibrates input i), with their glitches: drawn, those
     *                     left out of the fit hollow
     * @param printedTable the text {@code calibrate --verbose} prints, shown folded at the end
     */
    public static ReportPage of(List<GlitchExclusion> inputs, CalibrationReport report, String printedTable) {
        List<String> provenance = new ArrayList<>();
        List<ReportPage.Verdict> verdicts = new ArrayList<>();
        List<List<String>> single = new ArrayList<>();
        List<List<String>> multi = new ArrayList<>();
        List<List<String>> deferred = new ArrayList<>();
        List<ReportPage.Run> runs = new ArrayList<>();
        for (int i = 0; i < report.entries().size(); i++) {
            CalibrationEntry e = report.entries().get(i);
            GlitchExclusion in = inputs.get(i);
            String id = e.dataset().id();
            provenance.add(e.dataset().provenance().label());
            if (e instanceof SingleTierCalibration s) {
                single.add(singleTierRow(s));
                if (s.inNetworkFlag() != null) {
                    verdicts.add(new ReportPage.Verdict(ReportPage.Level.WARN, id, CalibratedSeries.flagOf(s)
                            + ": the α-β ring model cannot represent this run"));
                }
            } else if (e instanceof TwoTierCalibration t) {
                multi.add(multiDomainRow(t));
            } else if (e instanceof DeferredCalibration d) {
                deferred.add(List.of(id, d.awaiting() == null ? NONE : d.awaiting(), d.reason()));
            }
            FigureSeries series = CalibratedSeries.of(in.original().sweep(), e, List.of()).withLeftOut(in.leftOut());
            if (series.points().isEmpty()) {
                verdicts.add(new ReportPage.Verdict(ReportPage.Level.NOTE, id, "no point with a bus bandwidth to draw"));
                continue;
            }
            // Every view of the run, in page order: one entry per figure.
            List<ReportPage.ReportFigure> views = ReportPage.ReportFigure.views(id, caption(series),
                    busBwView(series));
            runs.add(new ReportPage.Run(id, e.dataset().provenance().label(), views, fitsTable(e), notes(e)));
        }
        List<ReportPage.Table> tables = new ArrayList<>();
        if (!single.isEmpty()) {
            tables.add(new ReportPage.Table("Single-tier α-β: T(M) = α + f·M/β_eff; u_r = BusBW_peak/β_phys;"
                    + " RMSPE in-sample, of the picked model", singleTierHeader(), single));
        }
        if (!multi.isEmpty()) {
            tables.add(new ReportPage.Table("Across NVLink domains: two-tier forms and protocol-aware families;"
                    + " RMSPE in-sample, of the picked model", multiDomainHeader(), multi));
        }
        if (!deferred.isEmpty()) {
            tables.add(new ReportPage.Table("Not calibrated", List.of("dataset", "awaiting", "why"), deferred));
        }
        int n = report.entries().size();
        return new ReportPage("calibrate: " + n + (n == 1 ? " dataset" : " datasets"), provenance, verdicts, tables,
                List.of(new ReportPage.Text("The same as text (calibrate --verbose)", printedTable, true)), List.of(),
                runs);
    }

    static List<String> singleTierHeader() {
        List<String> h = new ArrayList<>(List.of("dataset", "interconnect", "N (GPUs)", "β_phys (GB/s)",
                "BusBW_peak (GB/s)", "u_r (ratio)", "β_fit (GB/s)", "ℓ_link (µs)", "α_A (µs)", "α_B (µs)",
                "in-network", "picked model"));
        h.addAll(BAND_HEADERS);
        h.addAll(List.of("score (%)", "why"));
        return h;
    }

    static List<String> multiDomainHeader() {
        List<String> h = new ArrayList<>(List.of("dataset", "kind", "configurations (domains x GPUs)", "points",
                "β_NV (GB/s)", "inter-domain", "network line rate (GB/s)", "better two-tier form", "picked model"));
        h.addAll(BAND_HEADERS);
        h.addAll(List.of("score (%)", "why"));
        return h;
    }

    private static List<String> singleTierRow(SingleTierCalibration s) {
        SingleTierHeadline h = SingleTierHeadline.of(s);
        ModelChoice choice = s.choice();
        List<String> row = new ArrayList<>(List.of(s.dataset().id(), s.interconnect(), String.valueOf(s.ranks()),
                num("%.1f", h.betaPhysGBps()), num("%.2f", h.busBwPeakGBps()), num("%.3f", h.ur()),
                num("%.1f", h.betaFitGBps()), num("%.3f", h.ellLinkUs()), num("%.1f", h.alphaAUs()),
                num("%.1f", h.alphaBUs()), s.inNetworkFlag() == null ? "" : s.inNetworkFlag(), s.best()));
        row.addAll(bands(s.fit(s.best()).map(Fit::inSample)));
        row.add(score(choice, s.best()));
        row.add(choice.basis());
        return row;
    }

    private static List<String> multiDomainRow(TwoTierCalibration t) {
        String picked = t.choice().picked();
        Double line = t.networkLineRateGBps();
        List<String> row = new ArrayList<>(List.of(t.dataset().id(), t.kind(),
                String.join(", ", t.runs().stream().map(r -> r.config().label()).distinct().toList()),
                String.valueOf(t.runs().stream().mapToInt(r -> r.points()).sum()),
                num("%.0f", t.fabric().betaNvGBps()), t.inter() == null ? NONE : t.inter(), num("%.1f", line),
                t.fits().isEmpty() ? NONE : t.better().map(TwoTierForm::id).orElse("within 1 %"), picked));
        row.addAll(bands(inSample(t, picked)));
        row.add(score(t.choice(), picked));
        row.add(t.choice().basis());
        return row;
    }

    /** Every model fitted to the run, one row each: its parameters, in-sample RMSPE per band, out-of-sample score. */
    private static List<ReportPage.Table> fitsTable(CalibrationEntry e) {
        ModelChoice choice;
        if (e instanceof SingleTierCalibration s) {
            choice = s.choice();
        } else if (e instanceof TwoTierCalibration t) {
            choice = t.choice();
        } else {
            return List.of();
        }
        List<String> header = new ArrayList<>(List.of("model", "free parameters (k)", "parameters"));
        header.addAll(BAND_HEADERS);
        header.addAll(List.of("RMSPE in-sample (%)", "RMSPE out-of-sample (%)", "picked"));
        List<List<String>> rows = new ArrayList<>();
        for (ModelChoice.Family f : choice.families()) {
            Optional<Rmspe> r = e instanceof SingleTierCalibration s ? s.fit(f.name()).map(Fit::inSample)
                    : inSample((TwoTierCalibration) e, f.name());
            List<String> row = new ArrayList<>(List.of(f.name(), String.valueOf(f.freeParameters()),
                    parameters(e, f.name())));
            row.addAll(bands(r));
            row.add(num("%.1f", f.inSamplePct().isPresent() ? f.inSamplePct().getAsDouble() : null));
            row.add(score(choice, f.name()));
            row.add(f.name().equals(choice.picked()) ? "picked" : "");
            rows.add(row);
        }
        return List.of(new ReportPage.Table("Every model fitted to " + e.dataset().id()
                + " (out-of-sample: leave-one-out, GCV where too few points for it)", header, rows));
    }

    private static Optional<Rmspe> inSample(TwoTierCalibration t, String name) {
        Optional<Rmspe> protocol = t.protocolFit(name).map(Fit::inSample);
        return protocol.isPresent() ? protocol : TwoTierForm.byId(name).flatMap(t::fit).map(TwoTierFit::rmspe);
    }

    private static String parameters(CalibrationEntry e, String name) {
        Optional<Fit> fit = e instanceof SingleTierCalibration s ? s.fit(name) : ((TwoTierCalibration) e)
                .protocolFit(name);
        if (fit.isPresent()) {
            Fit f = fit.get();
            return String.join(", ", f.parameters().entrySet().stream().filter(p -> f.freeParameters()
                    .contains(p.getKey())).map(p -> p.getKey() + " " + num("%.4g", p.getValue())).toList());
        }
        Optional<TwoTierFit> form = TwoTierForm.byId(name).flatMap(((TwoTierCalibration) e)::fit);
        return form.map(f -> String.join(", ", f.profiles().stream().map(p -> p.param().id() + " "
                + num("%.4g", p.value()) + (p.param().unit().isEmpty() ? "" : " " + p.param().unit())).toList()))
                .orElse(NONE);
    }

    /** The run's notes by kind, each kind as the calibration types it; kinds with no note are left out. */
    private static List<ReportPage.NoteGroup> notes(CalibrationEntry e) {
        Map<NoteKind, List<String>> byKind = new java.util.EnumMap<>(NoteKind.class);
        if (e instanceof SingleTierCalibration s) {
            add(byKind, NoteKind.FIT, "fit on " + s.placement().label() + (s.timeDerived()
                    ? ", times derived from busbw" : "") + "; calibrates " + s.identifiability().label() + " ("
                    + s.identifiability().basis() + ")");
            s.unavailable().forEach((k, v) -> add(byKind, NoteKind.NOT_FITTED, k + ": " + v));
            s.fits().stream().findFirst().ifPresent(f -> f.marks().forEach(m -> add(byKind, NoteKind.DETERMINED, m)));
            s.fit(s.best()).filter(f -> f.leaveOneOutNote() != null).ifPresent(f -> add(byKind, NoteKind.FIT,
                    "leave-one-out " + f.leaveOneOutNote()));
            // the first line says which half was fitted
            s.notes().stream().filter(n -> n.kind() != org.ncclharness.calibration.measure.Note.Kind.FITTED_HALF)
                    .forEach(n -> add(byKind, NoteKind.of(n.kind()), n.text()));
        } else if (e instanceof TwoTierCalibration t) {
            t.fits().forEach(f -> f.notes().forEach(n -> add(byKind, NoteKind.FORMS, f.form().id() + ": " + n)));
            t.notes().forEach(n -> add(byKind, NoteKind.of(n.kind()), n.text()));
        } else if (e instanceof DeferredCalibration d) {
            add(byKind, NoteKind.NOT_FITTED, d.reason());
        }
        return byKind.entrySet().stream().map(k -> new ReportPage.NoteGroup(k.getKey().heading, k.getValue()))
                .toList();
    }

    private static void add(Map<NoteKind, List<String>> byKind, NoteKind kind, String line) {
        byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(line);
    }

    /** The busbw view: points, every fitted model, β_phys, and each model's time error beneath where it has times. */
    private static Figure busBwView(FigureSeries series) {
        return Figure.of(List.of(series)).withResiduals(residuals(series));
    }

    private static boolean residuals(FigureSeries series) {
        return !series.models().isEmpty() && series.points().stream().anyMatch(p -> p.timeUs() != null);
    }

    /** Says what the figure draws, and only that. */
    static String caption(FigureSeries series) {
        StringBuilder c = new StringBuilder(series.source()).append(". Points: measured bus bandwidth");
        if (series.points().stream().anyMatch(SizePoint::leftOut)) {
            c.append(" (hollow: glitches left out of the fit)");
        }
        if (series.models().isEmpty()) {
            c.append("; no model drawn");
        } else {
            c.append("; lines: models ").append(String.join(", ", series.models().stream().map(ModelCurve::name)
                    .toList()));
        }
        if (series.limit() != null) {
            c.append("; dashed: β_phys of ").append(series.limit().interconnect());
        }
        List<String> switching = series.models().stream().filter(m -> !m.switches().isEmpty())
                .map(ModelCurve::name).toList();
        if (!switching.isEmpty()) {
            c.append("; dotted verticals: where ").append(String.join(", ", switching))
                    .append(" changes protocol or algorithm (labelled from → to)");
        }
        if (residuals(series)) {
            c.append(". Lower panel: each model's time error (T_model − T_measured)/T_measured at each measured"
                    + " size");
        }
        return c.append('.').toString();
    }

    /** RMSPE per size band, {@value #NONE} for a band with no points or no fit. */
    private static List<String> bands(Optional<Rmspe> r) {
        return java.util.stream.Stream.of(SizeBand.values()).map(b -> r.isEmpty() || r.get().band(b).isEmpty() ? NONE
                : num("%.1f", r.get().band(b).getAsDouble())).toList();
    }

    /** A family's out-of-sample score, marked GCV where estimated; {@value #NONE} where not scored. */
    private static String score(ModelChoice choice, String name) {
        return choice.families().stream().filter(f -> f.name().equals(name) && f.scorePct().isPresent())
                .findFirst().map(f -> num("%.1f", f.scorePct().getAsDouble()) + (f.estimated() ? " GCV" : ""))
                .orElse(NONE);
    }

    private static String num(String format, Double v) {
        return v == null || v.isNaN() ? NONE : String.format(Locale.ROOT, format, v);
    }
}
