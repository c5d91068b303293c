package org.ncclharness.harness.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.format.CFormat;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.format.RankTimes;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.harness.figure.CalibrationReportPage;
import org.ncclharness.harness.figure.Figure;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.ReportPage;

/**
 * {@code sweep --report DIR}: what the sweep printed, as a page. Per table the verdicts the run itself decides
 * (#wrong, NCCL_TESTS_MIN_BW), the rows with nccl-tests' own number formats (and, for a measured run, the
 * fastest and slowest process per placement), then the calibration's verdicts, table and figures exactly as
 * {@code calibrate --report} builds them; without a calibration, one figure of the points per table.
 */
final class SweepReportPage {

    private SweepReportPage() {
    }

    /**
     * @param inputs          what went to the calibration, one per result, with its glitches; empty with
     *                        {@code --no-calibrate}
     * @param calibration     its report, null with {@code --no-calibrate}
     * @param calibrationText the calibration table as printed, null with {@code --no-calibrate}
     */
    static ReportPage of(SweepPlan plan, List<SweepResult> results, List<GlitchExclusion> inputs,
                         CalibrationReport calibration, String calibrationText) {
        List<String> provenance = new ArrayList<>();
        List<ReportPage.Verdict> verdicts = new ArrayList<>();
        List<ReportPage.Table> tables = new ArrayList<>();
        List<ReportPage.Text> texts = new ArrayList<>();
        List<ReportPage.ReportFigure> figures = new ArrayList<>();
        List<ReportPage.Run> runs = new ArrayList<>();
        for (SweepResult r : results) {
            Sweep s = r.sweep();
            String subject = subject(results, r);
            provenance.add(s.provenance().label());
            if (!s.provenance().kind().isMeasuredNow()) {
                verdicts.add(new ReportPage.Verdict(ReportPage.Level.NOTE, subject, s.provenance().kind().label()
                        + ", not measured by this run: " + s.provenance().label()));
            }
            verdicts.addAll(runVerdicts(plan, subject, s));
            tables.add(rows(subject, r));
            if (calibration == null) {
                figures.addAll(ReportPage.ReportFigure.views(subject, s.provenance().label() + ". Measured points"
                        + " only (--no-calibrate).", Figure.of(List.of(FigureSeries.of(s)))));
            }
        }
        if (calibration != null) {
            ReportPage fit = CalibrationReportPage.of(inputs, calibration, calibrationText);
            verdicts.addAll(fit.verdicts());
            tables.addAll(fit.tables());
            texts.add(new ReportPage.Text("The calibration sweep printed", calibrationText));
            // each calibrated table's section: its figures, its models' scores and its notes
            runs.addAll(fit.runs());
        }
        Sweep first = results.get(0).sweep();
        String title = "sweep: " + first.collective().testName() + ", " + first.provenance().kind().label()
                + (results.size() > 1 ? ", " + results.size() + " combinations" : "");
        return new ReportPage(title, provenance, verdicts, tables, texts, figures, runs);
    }

    /**
     * What names a table in the calibration, the page's verdicts and its figure: the dataset id or source, and
     * the combination when there are several tables.
     */
    static String subject(List<SweepResult> results, SweepResult r) {
        Sweep s = r.sweep();
        String id = s.provenance().datasetId() != null ? s.provenance().datasetId() : s.provenance().source();
        return results.size() > 1 ? id + " " + r.requested().label() : id;
    }

    /**
     * What nccl-tests itself would fail the run on: corrupted results and NCCL_TESTS_MIN_BW; a replay is judged by
     * neither, a table timed on a test clock by its #wrong only ({@link TableStatus}).
     */
    private static List<ReportPage.Verdict> runVerdicts(SweepPlan plan, String subject, Sweep s) {
        List<ReportPage.Verdict> out = new ArrayList<>();
        TableStatus status = TableStatus.of(plan, s);
        Optional<String> notJudged = status.notJudged();
        notJudged.ifPresent(why -> out.add(new ReportPage.Verdict(ReportPage.Level.NOTE, subject, why)));
        if (status.dataJudged() && status.wrongResults() > 0) {
            out.add(new ReportPage.Verdict(ReportPage.Level.FAIL, subject, status.wrongResults() + " result(s) with"
                    + " #wrong > 0: the data check failed"));
        }
        double avg = status.avgBusBwGBps();
        if (plan.minBusBwGBps() != null && status.timesJudged()) {
            boolean below = status.belowMinBusBw();
            out.add(new ReportPage.Verdict(below ? ReportPage.Level.FAIL : ReportPage.Level.PASS, subject,
                    String.format(Locale.ROOT, "average busbw %s GB/s %s %.2f × NCCL_TESTS_MIN_BW %s GB/s",
                            CFormat.g(avg), below ? "below" : "at or above", CheckRules.NCCL_TESTS_MIN_BW_MARGIN,
                            CFormat.g(plan.minBusBwGBps()))));
        } else if (plan.minBusBwGBps() == null && notJudged.isEmpty()) {
            out.add(new ReportPage.Verdict(ReportPage.Level.NOTE, subject, "average busbw " + CFormat.g(avg)
                    + " GB/s (no NCCL_TESTS_MIN_BW / --min-busbw to judge it against)"));
        }
        return out;
    }

    /** The rows as the table printed them (the writer's own cells), plus the per-process times where measured. */
    private static ReportPage.Table rows(String subject, SweepResult r) {
        List<String> header = new ArrayList<>(List.of("size (B)", "count", "type", "redop", "root",
                "out-of-place time (us)", "algbw (GB/s)", "busbw (GB/s)", "#wrong", "in-place time (us)",
                "algbw (GB/s)", "busbw (GB/s)", "#wrong"));
        boolean perProcess = !r.rankTimes().isEmpty();
        if (perProcess) {
            header.addAll(List.of("out-of-place fastest / slowest process (us)",
                    "in-place fastest / slowest process (us)"));
        }
        List<List<String>> rows = new ArrayList<>();
        List<Measurement> ms = r.sweep().rows();
        for (int i = 0; i < ms.size(); i++) {
            List<String> cells = new ArrayList<>(List.of(NcclTestsTableWriter.row(ms.get(i)).trim().split("\\s+")));
            if (perProcess) {
                cells.add(spread(r.rankTimes(), i, Placement.OUT_OF_PLACE));
                cells.add(spread(r.rankTimes(), i, Placement.IN_PLACE));
            }
            rows.add(cells);
        }
        String kind = r.sweep().provenance().kind().label();
        return new ReportPage.Table("Results (" + kind + "): " + subject, header, rows);
    }

    private static String spread(List<RankTimes> all, int row, Placement p) {
        return all.stream().filter(t -> t.row() == row && t.placement() == p).findFirst()
                .map(t -> time(t.minUs()) + " / " + time(t.maxUs())).orElse("-");
    }

    private static String time(double us) {
        return CFormat.floatStr(us, 7).trim();
    }
}
