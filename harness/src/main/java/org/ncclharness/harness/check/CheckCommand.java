package org.ncclharness.harness.check;

import org.ncclharness.harness.HelpOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.CheckReportWriter;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.check.HealthCheck;
import org.ncclharness.calibration.check.PerIterationCheck;
import org.ncclharness.calibration.check.Reference;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.io.OutputFile;
import org.ncclharness.calibration.io.SweepJson;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.report.CalibrationFile;
import org.ncclharness.harness.ExitCode;
import org.ncclharness.harness.TableName;
import org.ncclharness.harness.HarnessException;
import org.ncclharness.harness.RunMetadataOptions;
import org.ncclharness.harness.plot.FigureSeries;
import org.ncclharness.harness.plot.ModelCurve;
import picocli.CommandLine.ArgGroup;
import org.ncclharness.harness.plot.ReportPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code check RUN}: the bring-up verdict, PASS / WARN / FAIL with its reasons (SPEC §5: FAIL exits 1). */
@Command(name = "check", sortOptions = false,
        description = {"Judge a run: busbw at the largest size against beta_phys, any #wrong, the average busbw"
                + " against --min-busbw (nccl-tests' NCCL_TESTS_MIN_BW rule: below 0.9 x the value fails), dips,"
                + " and per size against a baseline run or a calibrated model.",
            "RUN is a bundled dataset id, a sweep JSON (ours or nccl-tests' -J), the project CSV or an nccl-tests"
                + " log; what a file does not say comes from --gpus, --nodes, --interconnect (across nodes the one"
                + " interconnect is the network between them).",
            "--per-iteration reads per-iteration samples (a sweep's -I 1 -J JSON, ours or nccl-tests') and reports"
                + " the slowest process and host per size, spikes, the first-iteration effect, per-host spread."},
        footer = {"", ExitCode.TABLE})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Parameters(paramLabel = "RUN", description = "dataset id, sweep JSON, CSV or nccl-tests log")
    String run;

    static final class ReferenceChoice {
        @Option(names = "--baseline", paramLabel = "ID|FILE", description = "a healthy run to compare with")
        String baseline;
        @Option(names = "--calibration", paramLabel = "FILE", description = "a calibrate --json report: compare with its model")
        Path calibration;
    }

    @ArgGroup(exclusive = true)
    ReferenceChoice reference = new ReferenceChoice();

    @Option(names = "--dataset", paramLabel = "ID", description = "the entry of a --calibration file with several")
    String dataset;
    @Option(names = "--model", paramLabel = "NAME", description = "the model of the --calibration entry (default: its best)")
    String model;
    @Mixin
    RunMetadataOptions runMetadata;
    @Option(names = "--nics-per-host", paramLabel = "N",
            description = "NICs per node, to give a multi-node peak against all of them (bundled datasets: from their metadata)")
    Integer nicsPerHost;
    @Option(names = "--warn-below", paramLabel = "PCT", description = "WARN below this %% of the reference at any size (default 90)")
    double warnBelow = 90;
    @Option(names = "--fail-below", paramLabel = "PCT", description = "FAIL below this %% of the reference at the largest common size (default 75)")
    double failBelow = 75;
    @Option(names = "--dip", paramLabel = "PCT", description = "a dip is busbw below this %% of its neighbours' mean (default 70)")
    double dip = 70;
    @Option(names = "--min-busbw", paramLabel = "GB/s", description = "FAIL when the average busbw is below 0.9 x this (default: NCCL_TESTS_MIN_BW)")
    Double minBusBw;
    @Option(names = "--fail-on-wrong", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "FAIL on any #wrong > 0 (default; --no-fail-on-wrong reports nothing for it)")
    boolean failOnWrong;
    @Option(names = "--per-iteration", description = "analyse per-iteration samples instead")
    boolean perIteration;
    @Option(names = "--spike-factor", paramLabel = "X", description = "with --per-iteration: an iteration slower than X x the median is a spike (default 2)")
    double spikeFactor = 2;
    @Option(names = "--straggler-pct", paramLabel = "PCT", description = "with --per-iteration: WARN when a process or host is this %% above the median (default 10)")
    double stragglerPct = 10;
    @Option(names = "--markdown", paramLabel = "OUT", description = "also write the report as Markdown")
    Path markdown;
    @Option(names = "--report", paramLabel = "DIR", description = "also write a page that opens from disk:"
            + " DIR/index.html with the verdict, the findings, the per-size table and the figure of the run (and the"
            + " reference)")
    Path page;
    @Option(names = "--force", description = "overwrite an existing --markdown file or --report page")
    boolean force;

    /** A report and what its page draws: the run's rows and the reference as a series (null without one). */
    private record Judged(CheckReport report, Sweep run, FigureSeries reference) { }

    @Override
    public Integer call() {
        if (markdown != null) {
            OutputFile.checkWritable(markdown, force);
        }
        if (page != null) {
            ReportPage.checkWritable(page, force);
        }
        List<Judged> judged;
        try {
            judged = perIteration ? List.of(perIterationReport()) : healthReports();
        } catch (IllegalArgumentException e) {
            throw new HarnessException(ExitCode.USAGE, e.getMessage());
        }
        if (page != null && judged.size() > 1) {
            throw new HarnessException(ExitCode.USAGE, run + " holds " + judged.size() + " tables and --report "
                    + "draws one; check them without --report, or convert the table you want to its own file");
        }
        StringWriter printed = new StringWriter();
        PrintWriter text = new PrintWriter(printed);
        StringBuilder md = new StringBuilder();
        Verdict worst = Verdict.PASS;
        for (int i = 0; i < judged.size(); i++) {
            CheckReport report = judged.get(i).report();
            if (judged.size() > 1) {
                text.println("# table " + (i + 1) + " of " + judged.size() + ": " + TableName.of(judged.get(i).run()));
                md.append(i == 0 ? "" : "\n").append("<!-- table ").append(i + 1).append(" of ").append(judged.size())
                        .append(": ").append(TableName.of(judged.get(i).run())).append(" -->\n");
            }
            CheckReportWriter.text(text, report);
            md.append(CheckReportWriter.markdown(report));
            worst = report.verdict().compareTo(worst) > 0 ? report.verdict() : worst;
        }
        if (judged.size() > 1) {
            text.println("Verdict over all " + judged.size() + " tables: " + worst);
        }
        text.flush();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        out.print(printed);
        out.flush();
        // The page and the Markdown record are written together, or neither
        Map<Path, OutputFile.Content> files = new LinkedHashMap<>();
        if (page != null) {
            Judged one = judged.get(0);
            files.putAll(CheckReportPage.of(one.report(), one.run(), one.reference(), printed.toString()).files(page));
        }
        if (markdown != null) {
            String mdText = md.toString();
            files.put(markdown, o -> o.write(mdText.getBytes(StandardCharsets.UTF_8)));
        }
        OutputFile.writeAll(files, force);
        if (page != null) {
            out.println("# page written to " + page.resolve("index.html"));
        }
        if (markdown != null) {
            out.println("# report written to " + markdown);
        }
        return worst == Verdict.FAIL ? ExitCode.FAIL : ExitCode.OK;
    }

    /** One report per table of the run: a multi-table log is judged table by table. */
    private List<Judged> healthReports() {
        HardwareFacts facts = HardwareFacts.bundled();
        if (runMetadata.interconnect() != null) {
            facts.interconnectNamed("--interconnect", runMetadata.interconnect());
        }
        for (double[] pct : new double[][] {{warnBelow}, {failBelow}, {dip}}) {
            if (!(pct[0] > 0 && pct[0] <= 100)) {
                throw new HarnessException(ExitCode.USAGE, "--warn-below, --fail-below and --dip take a percentage"
                        + " above 0 and at most 100, got " + pct[0]);
            }
        }
        List<Sweep> sweeps = RunSource.readAll(run, new RunSource.Flags(runMetadata.gpus(), runMetadata.nodes(),
                runMetadata.interconnect()));
        if (failBelow > warnBelow) {
            throw new HarnessException(ExitCode.USAGE, "--fail-below " + failBelow + " is above --warn-below "
                    + warnBelow + ": a size that fails must also warn; give a FAIL threshold at or below the WARN one");
        }
        CheckRules rules = new CheckRules(warnBelow, failBelow, dip, minBusBw(), failOnWrong);
        Integer nics = nicsPerHost != null ? nicsPerHost : DatasetCatalog.bundled().find(run)
                .map(d -> d.metadata().nicsPerHost()).orElse(null);
        List<Judged> out = new ArrayList<>();
        for (Sweep sweep : sweeps) {
            Ref ref = reference(sweep);
            out.add(new Judged(new HealthCheck(facts, rules).check(run, sweep, ref == null ? null : ref.rule(), nics),
                    sweep, ref == null ? null : ref.series()));
        }
        return out;
    }

    private Double minBusBw() {
        if (minBusBw != null) {
            return minBusBw;
        }
        String env = System.getenv("NCCL_TESTS_MIN_BW");
        if (env == null || env.isBlank()) {
            return null;
        }
        try {
            return Double.valueOf(env.trim());
        } catch (NumberFormatException e) {
            throw new HarnessException(ExitCode.USAGE, "invalid NCCL_TESTS_MIN_BW='" + env + "': expected GB/s");
        }
    }

    /** The reference and its series for the page. */
    private record Ref(Reference rule, FigureSeries series) { }

    private Ref reference(Sweep sweep) {
        if (reference.baseline != null) {
            Sweep base = RunSource.baselineFor(reference.baseline, sweep);
            FigureSeries series = FigureSeries.of(base);
            return new Ref(Reference.baseline(reference.baseline + " (" + base.provenance().label() + ")", base),
                    series.withLabel(series.label() + " (baseline " + reference.baseline + ")"));
        }
        if (reference.calibration == null) {
            return null;
        }
        CalibrationFile file = CalibrationFile.read(reference.calibration);
        CalibrationFile.Entry entry;
        if (dataset != null) {
            entry = file.dataset(dataset);
        } else if (file.datasets().size() == 1) {
            entry = file.datasets().get(0);
        } else {
            throw new InputException(file.file(), 0, "holds " + file.datasets().size() + " datasets; pick one with"
                    + " --dataset ID: " + file.ids());
        }
        CalibrationFile.CalibratedModel m = (model == null ? entry.bestModel() : entry.model(model)).orElseThrow(() ->
                new InputException(file.file(), 0, "dataset " + entry.id() + " has " + (model == null
                        ? "no calibrated model (" + entry.reason() + ")" : "no model " + model + "; it has: "
                        + String.join(", ", entry.models().stream().map(CalibrationFile.CalibratedModel::name).toList()))));
        Integer ranks = entry.ranks() != null ? entry.ranks() : sweep.ranks();
        if (ranks == null) {
            throw new InputException(run, 0, "the GPU count is needed to turn the model's time into busbw; pass --gpus N");
        }
        String label = String.format(Locale.ROOT, "model %s of %s in %s (N = %d)", m.name(), entry.id(), file.file(),
                ranks);
        return new Ref(Reference.model(label, sweep, sweep.collective(), ranks, m::timeUs),
                FigureSeries.predicted("model " + m.name() + " of " + entry.id(), sweep.collective(), ranks,
                        List.of(new ModelCurve(m.name(), b -> m.timeUs(b)))));
    }

    private Judged perIterationReport() {
        if (reference.baseline != null || reference.calibration != null) {
            throw new HarnessException(ExitCode.USAGE, "--per-iteration compares a run's own iterations;"
                    + " drop --baseline/--calibration");
        }
        if (!(spikeFactor > 1) || !(stragglerPct > 0)) {
            throw new HarnessException(ExitCode.USAGE, "--spike-factor must be above 1 and --straggler-pct above 0");
        }
        String text = Inputs.text(run);
        if (!SweepJson.looksLikeJson(text)) {
            throw new InputException(run, 1, "--per-iteration reads JSON with per-iteration objects (a sweep's"
                    + " -I 1 -J FILE, ours or nccl-tests'), not a table");
        }
        SweepJson.Read read = SweepJson.read(run, text);
        return new Judged(new PerIterationCheck(spikeFactor, stragglerPct).check(run, read), read.sweep(), null);
    }
}
