package org.ncclharness.harness.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.CheckReportWriter;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.RunContext;
import org.ncclharness.calibration.format.CFormat;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.figure.Figure;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.Judgement;
import org.ncclharness.harness.figure.ReportPage;

/**
 * {@code check --report DIR}: the verdict and its findings as the page's verdicts, the per-size table, the text
 * report exactly as printed, and the figure of the run with the reference beside it (a baseline as a second
 * series, a model as a predicted curve).
 */
final class CheckReportPage {

    private CheckReportPage() {
    }

    /**
     * @param run       the run's rows, as judged
     * @param reference the baseline's or the model's series, null without a reference
     * @param printed   the text report as printed
     */
    static ReportPage of(CheckReport report, RunContext context, Sweep run, FigureSeries reference, String printed) {
        List<ReportPage.Verdict> verdicts = new ArrayList<>();
        verdicts.add(new ReportPage.Verdict(ReportPage.Level.valueOf(report.verdict().name()), report.run(),
                "verdict " + report.verdict() + (report.reasons().isEmpty() ? "" : " (" + report.reasons().size()
                        + (report.reasons().size() == 1 ? " reason)" : " reasons)"))));
        for (Finding f : report.findings()) {
            ReportPage.Level level = switch (f.severity()) {
                case INFO -> ReportPage.Level.NOTE;
                case WARN -> ReportPage.Level.WARN;
                case FAIL -> ReportPage.Level.FAIL;
            };
            verdicts.add(new ReportPage.Verdict(level, f.rule(), f.message()));
        }
        List<String> provenance = new ArrayList<>(List.of(report.provenance().label()));
        if (report.reference() != null) {
            provenance.add(CheckReportWriter.referenceLine(report.reference()));
            provenance.addAll(report.reference().notes());
        }
        List<ReportPage.Table> tables = new ArrayList<>();
        tables.add(new ReportPage.Table("The run", List.of("", ""), context.facts().stream()
                .map(e -> List.of(e.getKey(), e.getValue())).toList()));
        if (!report.sizes().isEmpty()) {
            tables.add(sizes(report));
        }
        List<ReportPage.ReportFigure> figures = new ArrayList<>();
        figure(report, run, reference).ifPresent(f -> figures.addAll(ReportPage.ReportFigure.views(report.run(),
                report.provenance().label() + (reference == null ? "." : "; dashed, the reference: "
                        + reference.label() + ".") + judged(f), f)));
        return new ReportPage("check: " + report.run() + ": " + report.verdict(), provenance, verdicts, tables,
                List.of(new ReportPage.Text("The report check printed", printed)), figures);
    }

    /**
     * The run with what it was judged against drawn in (the reference dashed, the line rate and class floor, the
     * sizes the findings name); empty when the run has no point to draw.
     */
    static Optional<Figure> figure(CheckReport report, Sweep run, FigureSeries reference) {
        FigureSeries series = FigureSeries.of(run);
        return series.points().isEmpty() ? Optional.empty()
                : Optional.of(Figure.of(List.of(series)).withJudgement(Judgement.of(report, reference)));
    }

    /** What the caption says of the lines the judgement adds. */
    private static String judged(Figure f) {
        Judgement j = f.judgement();
        List<String> what = new ArrayList<>();
        j.levels().forEach(l -> what.add(l.label()));
        if (!j.marks().isEmpty()) {
            what.add("the sizes the findings name, with their rules");
        }
        return what.isEmpty() ? "" : " Marked: " + String.join("; ", what) + ".";
    }

    private static ReportPage.Table sizes(CheckReport report) {
        boolean ref = report.reference() != null;
        List<String> header = new ArrayList<>(List.of("size (B)", "busbw (GB/s)"));
        if (ref) {
            // the column is the reference, whatever its kind (a baseline, another cluster's run, a calibration)
            header.addAll(List.of("reference: " + report.reference().role().noun()
                    + (report.reference().predicted() ? ", predicted" : "") + " (GB/s)",
                    "% of reference"));
        }
        header.add("dip");
        List<List<String>> rows = new ArrayList<>();
        for (CheckReport.SizeLine s : report.sizes()) {
            List<String> row = new ArrayList<>(List.of(Long.toString(s.sizeBytes()), num(s.busBwGBps())));
            if (ref) {
                row.add(num(s.referenceGBps()));
                row.add(s.pctOfReference() == null ? "" : String.format(Locale.ROOT, "%.1f", s.pctOfReference()));
            }
            row.add(s.dip() ? "dip" : "");
            rows.add(row);
        }
        return new ReportPage.Table("Per size: " + report.run(), header, rows);
    }

    private static String num(Double v) {
        return v == null ? "" : CFormat.g(v);
    }
}
