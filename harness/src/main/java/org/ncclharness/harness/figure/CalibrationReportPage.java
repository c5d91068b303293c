package org.ncclharness.harness.figure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.DeferredCalibration;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;

/**
 * {@code calibrate --report DIR}: the calibration as a page. A verdict line per dataset (the best model, the
 * in-network flag, why a dataset was not fitted), a summary table, the text table exactly as printed, and one
 * figure per dataset with every fitted model over its points and the residuals beneath.
 */
public final class CalibrationReportPage {

    private CalibrationReportPage() {
    }

    /**
     * @param inputs the inputs in report order (entry i calibrates input i), with their glitches: drawn, those left
     *               out of the fit hollow
     */
    public static ReportPage of(List<GlitchExclusion> inputs, CalibrationReport report, String printedTable) {
        List<String> provenance = new ArrayList<>();
        List<ReportPage.Verdict> verdicts = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        List<ReportPage.ReportFigure> figures = new ArrayList<>();
        for (int i = 0; i < report.entries().size(); i++) {
            CalibrationEntry e = report.entries().get(i);
            GlitchExclusion in = inputs.get(i);
            String id = e.dataset().id();
            provenance.add(e.dataset().provenance().label());
            FigureSeries series = CalibratedSeries.of(in.original().sweep(), e, List.of()).withLeftOut(in.leftOut());
            if (series.points().isEmpty()) {
                verdicts.add(new ReportPage.Verdict(ReportPage.Level.NOTE, id, "no point with a bus bandwidth to draw"));
                continue;
            }
            Figure figure = Figure.of(List.of(series));
            if (e instanceof SingleTierCalibration s) {
                String score = num("%.1f", s.bestScorePct()) + " %";
                verdicts.add(new ReportPage.Verdict(ReportPage.Level.NOTE, id, "best model " + s.best() + ", RMSPE "
                        + score + " (" + s.bestBasis() + ")"));
                if (s.inNetworkFlag() != null) {
                    verdicts.add(new ReportPage.Verdict(ReportPage.Level.WARN, id, CalibratedSeries.flagOf(s)
                            + ": the α-β ring model cannot represent this run"));
                }
                rows.add(List.of(id, s.interconnect(), String.valueOf(s.ranks()),
                        s.seed().betaPhysGBps() == null ? "-" : num("%.1f", s.seed().betaPhysGBps()),
                        num("%.2f", s.seed().busBwPeakGBps()), s.seed().ur() == null ? "-" : num("%.3f", s.seed().ur()),
                        s.inNetworkFlag() == null ? "" : s.inNetworkFlag(), s.best(),
                        score, s.bestBasis()));
                figure = figure.withResiduals(series.points().stream().anyMatch(p -> p.timeUs() != null)
                        && !series.models().isEmpty());
            } else if (e instanceof TwoTierCalibration t) {
                verdicts.add(new ReportPage.Verdict(ReportPage.Level.NOTE, id, "multi-domain (" + t.kind() + "): model "
                        + t.choice().picked() + " picked, " + t.choice().basis() + "; out-of-sample: "
                        + t.choice().summary() + "; the table gives every family's parameters"));
            } else if (e instanceof DeferredCalibration d) {
                verdicts.add(new ReportPage.Verdict(ReportPage.Level.NOTE, id, "not calibrated: " + d.reason()));
            }
            figures.addAll(ReportPage.ReportFigure.views(id, caption(e, series), figure));
        }
        List<ReportPage.Table> tables = rows.isEmpty() ? List.of() : List.of(new ReportPage.Table(
                "Single-tier calibration: the best model per dataset",
                List.of("dataset", "interconnect", "N", "β_phys (GB/s)", "BusBW_peak (GB/s)", "u_r", "in-network",
                        "best model", "RMSPE", "scored"), rows));
        int n = report.entries().size();
        return new ReportPage("calibrate: " + n + (n == 1 ? " dataset" : " datasets"), provenance, verdicts, tables,
                List.of(new ReportPage.Text("The table calibrate printed", printedTable)), figures);
    }

    private static String caption(CalibrationEntry e, FigureSeries series) {
        String what = series.models().isEmpty() ? "measured points only"
                : "models " + String.join(", ", series.models().stream().map(m -> m.name()).toList())
                        + " over the points; residuals are (T_model − T_measured)/T_measured";
        return e.dataset().provenance().label() + ". " + what + ".";
    }

    private static String num(String format, double v) {
        return String.format(Locale.ROOT, format, v);
    }
}
