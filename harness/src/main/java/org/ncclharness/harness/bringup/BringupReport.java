package org.ncclharness.harness.bringup;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.CheckReportWriter;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.RepeatedRuns;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.diagnose.Diagnosis;
import org.ncclharness.calibration.diagnose.DiagnosisWriter;
import org.ncclharness.calibration.read.LogDiagnosis;
import org.ncclharness.calibration.read.SourceFacts;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.format.CFormat;
import org.ncclharness.harness.figure.Figure;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.Judgement;
import org.ncclharness.harness.figure.ReportPage;

/**
 * A bring-up as reported: each step's verdict, its subjects' figures and spread, the reasons, where the flow
 * stopped, and the diagnosis of the NCCL lines; as text (what rank 0 prints) and as the page.
 *
 * @param source    where the numbers came from ({@code measured now: 8 GPUs on 2 hosts ...} or a replay's label)
 * @param outcomes  the steps run or skipped, in order; a flow that stopped has fewer than four
 * @param diagnosis   the ranks' NCCL lines diagnosed, null when there were none
 * @param noDiagnosis why there is no diagnosis, for when {@code diagnosis} is null
 * @param baselineSource what the input of step 4's run states besides its rows (a replayed dataset's NICs, network,
 *                       metadata and NCCL lines' diagnosis), which baseline.json keeps; {@link SourceFacts#NONE} for a
 *                       run measured now
 */
record BringupReport(String source, List<StepOutcome> outcomes, Diagnosis diagnosis, String noDiagnosis,
                     List<String> args, SourceFacts baselineSource) {

    /** Figures draw at most this many subjects; a step of more GPUs is in the table only. */
    static final int MAX_SERIES = 16;

    BringupReport {
        outcomes = List.copyOf(outcomes);
        args = List.copyOf(args);
    }

    /** A bring-up measured now: its runs have no input that states more than they measured. */
    BringupReport(String source, List<StepOutcome> outcomes, Diagnosis diagnosis, String noDiagnosis,
                  List<String> args) {
        this(source, outcomes, diagnosis, noDiagnosis, args, SourceFacts.NONE);
    }

    /**
     * The worst step's verdict; a replay's is WARN whatever its steps found: it measured nothing here, so it can
     * neither pass this machine nor fail it (its steps still show what the rules found on the replayed rows).
     */
    Verdict verdict() {
        return replay() ? Verdict.WARN
                : outcomes.stream().map(StepOutcome::verdict).max(Enum::compareTo).orElse(Verdict.PASS);
    }

    /** True when the steps judged replayed rows (bundled runs of other machines), not rows measured here. */
    boolean replay() {
        return outcomes.stream().flatMap(o -> o.subjects().stream())
                .anyMatch(s -> s.kept().provenance().kind() == SourceKind.REPLAY);
    }

    /** True when the steps' rows were timed on a test clock (the stand-ins' virtual time), not the GPU's. */
    boolean testClock() {
        return outcomes.stream().flatMap(o -> o.subjects().stream())
                .anyMatch(s -> s.kept().provenance().kind() == SourceKind.TEST_CLOCK);
    }

    /** What the verdict line and the page's title add where the rows were not measured by a clock of the GPU's. */
    private String testClockMark() {
        return testClock() ? " (NOT MEASURED: the timed loop read a test clock)" : "";
    }

    /** The step that failed, if one did (the flow stops there). */
    Optional<StepOutcome> failed() {
        return outcomes.stream().filter(o -> o.verdict() == Verdict.FAIL).findFirst();
    }

    /** Step 4's kept run: the baseline, when the flow got there. */
    Optional<Sweep> baseline() {
        return outcomes.stream().filter(o -> o.step() == BringupStep.BASELINE && o.skipped() == null)
                .map(o -> o.subjects().get(0).kept()).findFirst();
    }

    String text() {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        out.println("# nccl-harness bringup: " + source);
        out.println("# command: " + String.join(" ", args));
        for (BringupStep step : BringupStep.values()) {
            Optional<StepOutcome> o = outcomes.stream().filter(x -> x.step() == step).findFirst();
            if (o.isEmpty()) {
                out.println(step.title() + ": not run (the flow stopped at step " + failed().map(f -> f.step().number())
                        .orElseThrow() + ")");
                continue;
            }
            if (o.get().skipped() != null) {
                out.println(step.title() + ": skipped: " + o.get().skipped());
                continue;
            }
            out.println(step.title() + ": " + o.get().verdict() + " (" + step.tests() + ")");
            if (o.get().subjects().isEmpty()) {
                printReasons(out, o.get().reasons());
                continue;
            }
            comparedWith(o.get()).ifPresent(c -> out.println("  " + c));
            List<List<String>> rows = table(o.get());
            int width = rows.stream().mapToInt(r -> r.get(0).length()).max().orElse(0);
            for (List<String> row : rows) {
                out.printf(Locale.ROOT, "  %-" + width + "s  %20s  %8s  %7s%n", row.toArray());
            }
            printReasons(out, o.get().reasons());
        }
        if (diagnosis != null) {
            StringWriter d = new StringWriter();
            DiagnosisWriter.text(new PrintWriter(d), diagnosis);
            out.println("diagnosis of NCCL's INFO lines (" + diagnosis.file() + "; informative: the verdict is the"
                    + " steps'):");
            d.toString().lines().skip(1).forEach(l -> out.println("  " + l));
        } else {
            out.println("diagnosis: none: " + noDiagnosis);
        }
        Optional<String> failed = failed().map(f -> f.step().title() + ": " + f.reasons().stream()
                .filter(r -> r.severity() == Severity.FAIL).findFirst().map(Finding::message).orElse(""));
        String kept = baseline().isPresent() ? "; step 4 kept as the baseline" : "";
        out.println(replay() ? "Verdict: WARN (a replay of stored runs, not measured here: it neither passes nor"
                + " fails this machine" + failed.map(f -> "; the replayed rows fail " + f).orElse("") + ")" + kept
                : failed.map(f -> "Verdict: FAIL at " + f).orElse("Verdict: " + verdict() + kept) + testClockMark());
        out.flush();
        return s.toString();
    }

    /** Of one rule, the text shows this many subjects' findings and counts the rest (the page lists them all). */
    static final int SHOWN_PER_RULE = 3;

    /**
     * Each reason on its line, but at most {@value #SHOWN_PER_RULE} of one rule and severity: on 64 hosts the
     * same unjudged peak would otherwise fill the screen and hide the one host that failed.
     */
    static void printReasons(PrintWriter out, List<Finding> reasons) {
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        java.util.Map<String, Integer> hidden = new java.util.LinkedHashMap<>();
        for (Finding f : reasons) {
            String key = f.severity() + " " + f.rule();
            if (seen.merge(key, 1, Integer::sum) <= SHOWN_PER_RULE) {
                out.println("  " + f.severity() + "  " + f.message());
            } else {
                hidden.merge(key, 1, Integer::sum);
            }
        }
        hidden.forEach((key, n) -> out.println("  " + key.substring(0, key.indexOf(' ')) + "  … and " + n + " more"
                + " of rule " + key.substring(key.indexOf(' ') + 1) + " (all of them on the page)"));
    }

    /** What the step's subjects were judged against (the first subject's: every subject of a step has the same kind). */
    static Optional<String> comparedWith(StepOutcome o) {
        if (o.step() == BringupStep.GPU) {
            return Optional.of("judged on the data check and against each other (one GPU moves no bus bytes)");
        }
        CheckReport r = o.subjects().get(0).report();
        if (r.reference() != null) {
            return Optional.of("against " + CheckReportWriter.referenceLine(r.reference()));
        }
        return r.findings().stream().filter(f -> f.rule().equals("reference")).findFirst().map(Finding::message);
    }

    /** One row per subject: its figure at the largest size, the spread of its runs, its verdict. */
    static List<List<String>> table(StepOutcome o) {
        List<List<String>> rows = new ArrayList<>();
        String metric = o.step() == BringupStep.GPU ? "algbw" : "busbw";
        long size = o.subjects().get(0).runs().atLargest().sizeBytes();
        rows.add(List.of("subject", metric + "@" + SizeText.exact(size) + " GB/s", "spread", "verdict"));
        for (StepOutcome.Subject s : o.subjects()) {
            Measurement top = s.runs().median().get(s.runs().median().size() - 1);
            Double v = o.step() == BringupStep.GPU ? top.outOfPlace().algBwGBps() : top.outOfPlace().busBwGBps();
            RepeatedRuns.SizeSpread sp = s.runs().atLargest();
            rows.add(List.of(s.name(), v == null ? "-" : CFormat.g(v), sp.runs() < 2 ? "n/a"
                    : String.format(Locale.ROOT, "%.1f %%", sp.spreadPct()), s.report().verdict().name()));
        }
        return rows;
    }

    ReportPage page() {
        List<ReportPage.Verdict> verdicts = new ArrayList<>();
        List<ReportPage.Table> tables = new ArrayList<>();
        List<ReportPage.ReportFigure> figures = new ArrayList<>();
        for (StepOutcome o : outcomes) {
            if (o.skipped() != null) {
                verdicts.add(new ReportPage.Verdict(ReportPage.Level.NOTE, o.step().title(), "skipped: " + o.skipped()));
                continue;
            }
            verdicts.add(new ReportPage.Verdict(ReportPage.Level.valueOf(o.verdict().name()), o.step().title(),
                    o.step().tests()));
            for (Finding f : o.reasons()) {
                verdicts.add(new ReportPage.Verdict(f.severity() == Severity.FAIL ? ReportPage.Level.FAIL
                        : ReportPage.Level.WARN, o.step().title(), f.message()));
            }
            if (o.subjects().isEmpty()) {
                continue; // did not complete: its reason is among the verdicts
            }
            List<List<String>> rows = table(o);
            tables.add(new ReportPage.Table(o.step().title(), rows.get(0), rows.subList(1, rows.size())));
            if (o.step() != BringupStep.GPU) {
                List<FigureSeries> series = new ArrayList<>();
                for (StepOutcome.Subject s : o.subjects().subList(0, Math.min(MAX_SERIES, o.subjects().size()))) {
                    series.add(FigureSeries.of(s.kept()).withLabel(s.name()));
                }
                FigureSeries ref = o.subjects().get(0).reference();
                // the judgement drawn in: the reference dashed, the line rate and class floor, the sizes named
                Judgement judged = Judgement.of(o.subjects().stream().map(StepOutcome.Subject::report).toList(), ref);
                figures.addAll(ReportPage.ReportFigure.views("step-" + o.step().number(), o.step().title()
                        + ": each subject (the median of its runs)" + (ref == null ? "" : "; dashed, " + ref.label())
                        + (judged.levels().isEmpty() ? "" : "; the " + String.join(" and ", judged.levels().stream()
                                .map(Judgement.Level::label).toList())) + (judged.marks().isEmpty() ? "."
                        : "; the sizes the findings name, with their rules."), Figure.of(series).withJudgement(judged)));
            }
        }
        if (diagnosis != null) {
            for (LogDiagnosis.Issue i : diagnosis.findings()) {
                verdicts.add(new ReportPage.Verdict(i.severity() == Severity.FAIL ? ReportPage.Level.FAIL
                        : i.severity() == Severity.WARN ? ReportPage.Level.WARN : ReportPage.Level.NOTE,
                        "diagnosis " + i.code(), i.message() + "; fix: " + i.fix()));
            }
        }
        // a replay says so in the title too: a tab or a forwarded screenshot must not pass for a measurement
        String title = "bringup" + (replay() ? " (REPLAY, not measured here): " + verdict().name()
                : testClockMark() + ": " + failed().map(f -> "FAIL at " + f.step().title()).orElse(verdict().name()));
        return new ReportPage(title, List.of(source, "each step: the median of its runs per size (-N)"), verdicts,
                tables, List.of(new ReportPage.Text("The report bringup printed", text())), figures);
    }
}
