package org.ncclharness.harness.check;

import org.ncclharness.harness.runs.JudgedReference;
import org.ncclharness.harness.runs.RunSource;
import org.ncclharness.harness.options.NicOptions;
import org.ncclharness.harness.options.HelpOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.Optional;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.diagnose.RunDiagnosis;
import org.ncclharness.calibration.read.LogDiagnosis;
import org.ncclharness.calibration.resolve.Comparability;
import org.ncclharness.calibration.check.RunContext;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;
import org.ncclharness.calibration.check.CheckReportWriter;
import org.ncclharness.calibration.check.DiagnosisFindings;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.check.HealthCheck;
import org.ncclharness.calibration.check.NcclEstimateComparison;
import org.ncclharness.calibration.check.PerIterationCheck;
import org.ncclharness.calibration.check.Reference;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.NoTableException;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolveNote;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.harness.runs.FactAdvice;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.calibrate.CalibrationFile;
import org.ncclharness.harness.options.AllowPredictedOption;
import org.ncclharness.harness.options.PredictedRows;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.LogCollectiveOption;
import org.ncclharness.harness.options.OutputFolder;
import org.ncclharness.harness.options.OutputImage;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.Outputs;
import org.ncclharness.harness.figure.ChartFile;
import org.ncclharness.harness.figure.Figure;
import org.ncclharness.harness.runs.TableName;
import org.ncclharness.harness.runs.RunInputs;
import org.ncclharness.harness.options.BandwidthConverter;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.RunMetadataOptions;
import org.ncclharness.harness.options.TierOptions;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.ModelCurve;
import picocli.CommandLine.ArgGroup;
import org.ncclharness.harness.figure.ReportPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code check RUN}: the bring-up verdict, PASS / WARN / FAIL with its reasons (FAIL exits 1: README, "Exit codes").
 */
@Command(name = "check", addMethodSubcommands = false, sortOptions = false,
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
        @Option(names = "--baseline", paramLabel = "ID|FILE|DIR", description = "a healthy run to compare with"
                + " (a bringup directory: its baseline.json)")
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
    /** calibrate's two-tier flags, so that one set of flags serves both commands on a file */
    @Mixin
    TierOptions tiers;
    @Mixin
    NicOptions nicOptions;
    private CalibrationFile calibrationFile;
    @Mixin
    LogCollectiveOption collective;
    @Mixin
    AllowPredictedOption allowPredicted;
    @Option(names = "--allow-mismatch", description = "compare with a baseline or calibration of another collective,"
            + " data type, GPU count, host count or GPU model anyway; the report's first lines say what differs")
    boolean allowMismatch;
    @Option(names = "--expect-busbw", paramLabel = "GB/s", converter = BandwidthConverter.GBpsByDefault.class,
            description = "without --baseline: the busbw a healthy run"
            + " of this hardware reaches at its largest sizes; --warn-below and --fail-below apply to it (default: the"
            + " nearest bundled run of the same GPU model and fabric, else the line rate)")
    Double expectBusBw;
    @Option(names = "--warn-latency", paramLabel = "X", description = "WARN where a latency-bound size (below the"
            + " reference's latency/bandwidth crossover) takes more than X times the reference's time (default 1.5)")
    double warnLatency = CheckRules.DEFAULT_LATENCY_WARN_FACTOR;
    @Option(names = "--warn-below", paramLabel = "PCT", description = "WARN below this %% of the reference at any bandwidth-bound size (default 90; against the line rate 80 unless given)")
    double warnBelow = 90;
    @Option(names = "--fail-below", paramLabel = "PCT", description = "FAIL below this %% of the reference at the largest common size (default 75; against the line rate, where it is the reference, only when given). Across hosts, below 25 %% of the line rate FAILs whatever the reference")
    double failBelow = 75;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;
    @Option(names = "--dip", paramLabel = "PCT", description = "a dip is busbw below this %% of its neighbours' mean (default 70)")
    double dip = 70;
    @Option(names = "--min-busbw", paramLabel = "GB/s", converter = BandwidthConverter.GBpsByDefault.class,
            description = "FAIL when the average busbw is below 0.9 x this (default: NCCL_TESTS_MIN_BW)")
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
    @Option(names = "--markdown", paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "also write the bring-up record as Markdown: the verdict and its reasons, the run (hosts,"
            + " GPUs, NCCL and nccl-tests versions, CUDA, driver, date, command line, NCCL_* environment, as far as"
            + " stated), the findings, the per-size table, and the figure (beside OUT: OUT with .png for .md, unless"
            + " --figure says); - for standard output (the text report then goes to standard error, and the figure"
            + " only where --figure or --report says)")
    OutputTarget markdown;
    @Option(names = "--figure", paramLabel = "FILE", converter = OutputImage.Converter.class,
            description = "also write the figure of the run (and the reference) as PNG to FILE, which the --markdown"
            + " record links")
    OutputImage figure;
    @Option(names = "--report", paramLabel = "DIR", converter = OutputFolder.Converter.class,
            description = "also write a page that opens from disk: DIR/index.html with the verdict, the findings,"
            + " the per-size table and the figure of the run (and the reference)")
    OutputFolder page;
    @Option(names = "--force", description = "overwrite an existing --markdown file, --figure or --report page")
    boolean force;
    @Option(names = "--strict", description = "exit 1 on WARN as on FAIL: for CI, where a verdict that could not be"
            + " proved healthy must stop the job")
    boolean strict;

    /** A report and what its page draws: the run's rows and the reference as a series (null without one). */
    private record Judged(CheckReport report, RunContext context, Sweep run, FigureSeries reference) { }

    @Override
    public Integer call() {
        if (figure != null && ChartFile.Format.of(figure.path()) != ChartFile.Format.PNG) {
            throw new InputException(figure.toString(), 0, "check draws its figure as PNG: name the file .png");
        }
        Path figureFile = figureFile();
        if (markdown != null) {
            markdown.checkWritable(force);
        }
        if (figureFile != null) {
            OutputFile.checkWritable(figureFile, force);
        }
        if (page != null) {
            ReportPage.checkWritable(page.path(), force);
        }
        RunDocument doc = RunInputs.document(run, collective.value());
        List<Judged> judged;
        try {
            judged = perIteration ? List.of(perIterationReport(doc))
                    : doc.sweepError() != null ? List.of(failedBeforeATable(doc))
                    : healthReports(doc);
        } catch (IllegalArgumentException e) {
            throw new HarnessException(ExitCode.USAGE, e.getMessage());
        }
        if (page != null && judged.size() > 1) {
            throw new HarnessException(ExitCode.USAGE, run + " holds " + judged.size() + " tables and --report "
                    + "draws one; check them without --report, or convert the table you want to its own file");
        }
        StringWriter printed = new StringWriter();
        PrintWriter text = new PrintWriter(printed);
        Verdict worst = Verdict.PASS;
        for (int i = 0; i < judged.size(); i++) {
            CheckReport report = judged.get(i).report();
            if (judged.size() > 1) {
                text.println("# table " + (i + 1) + " of " + judged.size() + ": " + TableName.of(judged.get(i).run()));
            }
            CheckReportWriter.text(text, report);
            worst = report.verdict().compareTo(worst) > 0 ? report.verdict() : worst;
        }
        if (judged.size() > 1) {
            text.println("Verdict over all " + judged.size() + " tables: " + worst);
        }
        text.flush();
        PrintWriter out = new PrintWriter(OutputTarget.reportStream(markdown), true, StandardCharsets.UTF_8);
        out.print(printed);
        out.flush();
        // The page, the figure and the Markdown record are written together, or none; a record on standard
        // output after them
        Judged first = judged.get(0);
        Optional<Figure> drawn = CheckReportPage.figure(first.report(), first.run(), first.reference());
        Outputs outputs = new Outputs();
        ReportPage pageDoc = null;
        if (page != null) {
            pageDoc = CheckReportPage.of(first.report(), first.context(), first.run(), first.reference(),
                    printed.toString());
            outputs.addAll(pageDoc.files(page.path()));
        }
        if (figureFile != null) {
            drawn.ifPresent(f -> outputs.add(figureFile, ReportPage.png(f)));
        }
        if (markdown != null) {
            outputs.add(markdown, Outputs.utf8(markdown(judged, drawn.isPresent(), figureFile, pageDoc)));
        }
        outputs.commit(force);
        if (page != null) {
            out.println("# page written to " + page.resolve("index.html"));
        }
        if (figure != null) {
            out.println(drawn.isPresent() ? "# figure written to " + figure : "# no figure: the run has no point to"
                    + " draw");
        }
        if (markdown != null && !markdown.isStdout()) {
            out.println("# report written to " + markdown);
        }
        out.flush();
        return ExitCode.of(worst, strict);
    }

    /** Where the first table's figure goes as a file of its own: --figure, else beside a --markdown file. */
    private Path figureFile() {
        if (figure != null) {
            return figure.path();
        }
        return markdown == null ? null : markdown.file().map(CheckCommand::figureBeside).orElse(null);
    }

    /**
     * The Markdown record of every table; the first links the figure where it was written (a path relative to a
     * record file, as given for a record on standard output), or says why there is none.
     */
    private String markdown(List<Judged> judged, boolean drawn, Path figureFile, ReportPage pageDoc) {
        String link = null;
        String none = null;
        if (!drawn) {
            none = "No figure: the run has no point to draw.";
        } else if (figureFile != null) {
            link = markdown.file().map(md -> md.toAbsolutePath().getParent().relativize(figureFile.toAbsolutePath())
                    .normalize()).orElse(figureFile).toString();
        } else if (pageDoc != null) {
            link = page.resolve(pageDoc.fileNames().get(0)).toString();
        } else {
            none = "No figure was written: with the record on standard output (--markdown -) the figure goes only"
                    + " where --figure FILE or --report DIR says.";
        }
        StringBuilder md = new StringBuilder();
        for (int i = 0; i < judged.size(); i++) {
            if (judged.size() > 1) {
                md.append(i == 0 ? "" : "\n").append("<!-- table ").append(i + 1).append(" of ").append(judged.size())
                        .append(": ").append(TableName.of(judged.get(i).run())).append(" -->\n");
            }
            md.append(CheckReportWriter.markdown(judged.get(i).report(), judged.get(i).context(), i == 0 ? link : null,
                    i == 0 ? none : null));
        }
        return md.toString();
    }

    /**
     * A log with no result table whose own lines say the run failed (a rank's 'Test NCCL failure', an IB
     * completion error, a socket that could not connect) is a failed run, not bad input: a script gets FAIL (exit
     * 1) with the reasons, not the usage error (exit 2) a typo gets, and the ticket (--markdown, --report) says
     * them with the run's context like any verdict's; the run has no row, so no figure. The same where a failure
     * was printed into the table and broke a row (as {@code diagnose} reads it: TEST_FAILED, exit 1). Anything else
     * stays the input error.
     */
    private Judged failedBeforeATable(RunDocument doc) {
        List<Finding> fails = new ArrayList<>(RunDiagnosis.of(doc).map(LogDiagnosis::findings).orElse(List.of())
                .stream().filter(DiagnosisFindings::fails).map(DiagnosisFindings::failed)
                .toList());
        if (fails.isEmpty()) {
            throw doc.sweepError();
        }
        fails.add(0, doc.sweepError() instanceof NoTableException ? new Finding(Severity.FAIL, "no-table", null,
                "no result table: the run stopped before its first size, and its lines say why")
                : new Finding(Severity.FAIL, "broken-table", null, "the result table cannot be read ("
                + doc.sweepError().getMessage() + "): a failure was printed into it, and the log's lines say why"));
        Sweep none = new Sweep(new Provenance(SourceKind.STORED, run, null, "a stored log with no result table: "
                + run), null, RunInfo.unknown(), null, List.of(), List.of(), List.of());
        CheckReport report = new CheckReport(run, none.provenance(), null, List.of(), fails, Verdict.of(fails));
        return new Judged(report, RunContext.of(none, doc), none, null);
    }

    /** The figure file a Markdown record links to: {@code bringup.md} → {@code bringup.png}. */
    static Path figureBeside(Path md) {
        String name = md.getFileName().toString();
        String stem = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
        return md.resolveSibling(stem + ".png");
    }

    /**
     * What the log's NCCL lines say, as the document gives it (a JSON's kept diagnosis, else its lines'): a finding
     * the diagnosis rates FAIL fails the run, the rest is context ({@link DiagnosisFindings}).
     */
    private static List<Finding> diagnosis(RunDocument doc) {
        return RunDiagnosis.of(doc).map(DiagnosisFindings::of).orElse(List.of());
    }

    /** One report per table of the run: a multi-table log is judged table by table. */
    private List<Judged> healthReports(RunDocument doc) {
        HardwareFacts facts = HardwareFacts.bundled();
        for (String[] f : new String[][] {{"--interconnect", runMetadata.interconnect()}, {"--intra", tiers.intra()},
            {"--inter", tiers.inter()}}) {
            if (f[1] != null) {
                facts.interconnectNamed(f[0], f[1]);
            }
        }
        tiers.agreeWith(runMetadata.interconnect());
        for (double[] pct : new double[][] {{warnBelow}, {failBelow}, {dip}}) {
            if (!(pct[0] > 0 && pct[0] <= 100)) {
                throw new HarnessException(ExitCode.USAGE, "--warn-below, --fail-below and --dip take a percentage"
                        + " above 0 and at most 100, got " + pct[0]);
            }
        }
        Hints hints = new Hints(runMetadata.gpus(), runMetadata.nodes(), runMetadata.interconnect(), tiers.intra(),
                tiers.inter(), null, nicOptions.nics());
        List<Sweep> tables = RunSource.judgeable(doc, collective.value(),
                allowPredicted.rows(PredictedRows.Command.CHECK));
        if (failBelow > warnBelow) {
            throw new HarnessException(ExitCode.USAGE, "--fail-below " + failBelow + " is above --warn-below "
                    + warnBelow + ": a size that fails must also warn; give a FAIL threshold at or below the WARN one");
        }
        if (!(warnLatency > 1)) {
            throw new HarnessException(ExitCode.USAGE, "--warn-latency takes a factor above 1, got " + warnLatency);
        }
        if (expectBusBw != null && (reference.baseline != null || reference.calibration != null)) {
            throw new HarnessException(ExitCode.USAGE, "--expect-busbw and --" + (reference.baseline != null
                    ? "baseline" : "calibration") + " contradict: each is what the run is compared with; give one");
        }
        // a --warn-below / --fail-below the user typed holds against the line rate too
        var parsed = spec.commandLine().getParseResult();
        CheckRules rules = new CheckRules(warnBelow, failBelow, dip, minBusBw(), failOnWrong, warnLatency)
                .withLineRate(parsed.hasMatchedOption("--warn-below") ? warnBelow : null,
                        parsed.hasMatchedOption("--fail-below") ? failBelow : null);
        List<Finding> diagnosis = diagnosis(doc);
        List<Judged> out = new ArrayList<>();
        for (Sweep input : tables) {
            List<Finding> context = new ArrayList<>();
            ResolvedRun resolved = RunSource.judged(doc, input, hints);
            // the --calibration entry is resolved once per table: its fabric, its NICs and its model
            CalibrationFile.Entry entry = reference.calibration == null ? null : calibrationEntry(resolved.sweep());
            ResolvedRun table = entry == null ? resolved : withCalibrated(doc, input, resolved, hints, entry, context);
            FactAdvice.notes(table.notes()).forEach(n -> context.add(Finding.info("fabric", n)));
            Sweep sweep = table.sweep();
            Nics tableNics = entry == null ? table.nics() : table.nics().orElse(calibratedNics(sweep, entry));
            JudgedReference ref = reference(table, facts, tableNics.perHost(), entry);
            HealthCheck.Against against = new HealthCheck.Against(ref == null ? null : ref.rule(), expectBusBw,
                    tableNics, doc.stated().trimmedBySource());
            CheckReport report = new HealthCheck(facts, rules).check(run, sweep, against);
            if (ref != null && ref.why() != null) {
                context.add(Finding.info("reference", ref.why()));
            }
            HealthCheck.notMeasured(sweep).ifPresent(context::add);
            // NCCL's own estimate, where the run's JSON carries it: a reference curve, INFO or WARN, never FAIL
            context.addAll(NcclEstimateComparison.findings(input.rows(), doc.ncclEstimates(input)));
            report = report.withFindings(context, diagnosis);
            out.add(new Judged(report, RunContext.of(sweep, doc), sweep, ref == null ? null : ref.series()));
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
            return new BandwidthConverter.GBpsByDefault().convert(env);
        } catch (picocli.CommandLine.TypeConversionException e) {
            throw new HarnessException(ExitCode.USAGE, "invalid NCCL_TESTS_MIN_BW: " + e.getMessage());
        }
    }

    private JudgedReference reference(ResolvedRun resolved, HardwareFacts facts, Integer nics,
                                      CalibrationFile.Entry entry) {
        Sweep sweep = resolved.sweep();
        if (reference.baseline != null) {
            Sweep base = RunSource.baselineFor(reference.baseline, sweep);
            List<String> differ = Comparability.differences(Comparability.Side.of(sweep), Comparability.Side.of(base));
            JudgedReference ref = JudgedReference.baseline(reference.baseline, base);
            if (!differ.isEmpty()) {
                mismatch("baseline " + reference.baseline, Comparability.Side.of(base), sweep, differ);
                return new JudgedReference(ref.rule().withNotes(List.of("NOT COMPARABLE (--allow-mismatch): "
                        + String.join(", ", differ))), ref.series(), null);
            }
            return ref;
        }
        if (reference.calibration != null) {
            return calibrated(sweep, entry);
        }
        if (expectBusBw != null) {
            return null;
        }
        return JudgedReference.expected(resolved, sweep, run);
    }

    /**
     * Without --dataset, the one entry of a --calibration file that matches the run's collective and GPU model;
     * with several, exit 2 listing those (not every entry of a report of the whole catalog).
     */
    private static String onlyComparableEntry(CalibrationFile file, Sweep sweep) {
        if (file.datasets().size() == 1) {
            return file.datasets().get(0).id();
        }
        Comparability.Side me = Comparability.Side.of(sweep);
        List<String> ids = file.datasets().stream().filter(e -> !e.models().isEmpty())
                .filter(e -> e.collective() == null || e.collective().equals(sweep.collective().testName()))
                .filter(e -> me.gpuFamily() == null || me.gpuFamily().equals(Comparability.gpuFamily(e.gpuModel())
                        .orElse(null)))
                .map(CalibrationFile.Entry::id).toList();
        if (ids.size() == 1) {
            return ids.get(0);
        }
        throw new InputException(file.file(), 0, "holds " + file.datasets().size() + " entries; pick one with"
                + " --dataset ID" + (ids.isEmpty() ? " (none has this run's collective and GPU model)"
                : "; those of this run's collective and GPU model: " + String.join(", ", ids.subList(0,
                Math.min(10, ids.size()))) + (ids.size() > 10 ? ", ..." : "")));
    }

    /** A reference that differs from the run: exit 2 naming both sides, unless --allow-mismatch. */
    private void mismatch(String what, Comparability.Side other, Sweep sweep, List<String> differ) {
        if (!allowMismatch) {
            throw new HarnessException(ExitCode.USAGE, run + " (" + Comparability.Side.of(sweep).describe() + ") and "
                    + what + " (" + other.describe() + ") are not comparable: " + String.join(", ", differ)
                    + "; --allow-mismatch compares them anyway");
        }
    }

    /** The --calibration file, read once for every table of the run. */
    private CalibrationFile calibrationFile() {
        if (calibrationFile == null) {
            calibrationFile = CalibrationFile.read(reference.calibration);
        }
        return calibrationFile;
    }

    /** The --calibration entry a table is compared with: --dataset's, else the one comparable entry. */
    private CalibrationFile.Entry calibrationEntry(Sweep sweep) {
        CalibrationFile file = calibrationFile();
        return file.dataset(dataset != null ? dataset : onlyComparableEntry(file, sweep));
    }

    /**
     * A run judged against a calibration entry takes from the entry what it does not state itself, as if given:
     * the hosts, where it ran at the entry's GPU count (else its busbw would be judged against the tier inside one
     * host), and the fabric the entry was fitted on (the line-rate rule needs it). The report says which; a flag
     * overrides either.
     */
    private static ResolvedRun withCalibrated(RunDocument doc, Sweep input, ResolvedRun resolved, Hints hints,
                                              CalibrationFile.Entry entry, List<Finding> context) {
        Hardware h = resolved.hardware();
        Integer nodes = entry.nodes();
        Integer hosts = hints.nodes();
        if (h.hosts() == null && h.ranks() != null && nodes != null && nodes > 1 && h.ranks().equals(entry.ranks())
                && h.ranks() % nodes == 0) {
            hosts = nodes;
            context.add(Finding.info("hosts", "the run does not state its hosts: taken as the " + nodes + " hosts its"
                    + " calibration entry " + entry.id() + " ran at the same " + h.ranks() + " GPUs; --nodes overrides"
                    + " it"));
        }
        // stated by the input, a flag or the log's lines; a GPU name's fabric gives way to the entry's
        boolean statesFabric = (h.intra() != null || h.inter() != null)
                && resolved.notes().stream().noneMatch(n -> n instanceof ResolveNote.FabricFromGpuName);
        Hints filled = new Hints(hints.gpus(), hosts, statesFabric || entry.intra() != null || entry.inter() != null
                ? hints.interconnect() : entry.interconnect(), statesFabric ? hints.intra() : entry.intra(),
                statesFabric ? hints.inter() : entry.inter(), hints.domainSize(), hints.nics());
        ResolvedRun again = RunSource.judged(doc, input, filled);
        Hardware now = again.hardware();
        if (!statesFabric && (now.intra() != null || now.inter() != null)) {
            context.add(Finding.info("fabric", "the run does not state its interconnect: judged on calibration entry "
                    + entry.id() + "'s (" + (now.intra() == null ? "" : now.intra() + " inside a host")
                    + (now.intra() != null && now.inter() != null ? ", " : "")
                    + (now.inter() == null ? "" : now.inter() + " between hosts") + "); --interconnect overrides it"));
            return new ResolvedRun(again.source(), again.sweep(), again.nics(), again.forcedAlgo(), List.of(),
                    again.missing());
        }
        return again;
    }

    /**
     * The calibration entry's NICs per domain, as NICs per host where the run's hosts are its domains, and one NIC's
     * rate from the line rate it was judged against (which carries a --nic-speed given to calibrate).
     */
    private static Nics calibratedNics(Sweep sweep, CalibrationFile.Entry entry) {
        Integer perDomain = entry.nicsPerDomain();
        Hardware h = sweep.hardware();
        Integer perHost = perDomain != null && h != null && h.hosts() != null && h.hosts().equals(h.domains())
                ? perDomain : null;
        Double line = entry.networkLineRateGBps();
        return new Nics(perHost, perDomain == null || line == null ? null : line / perDomain);
    }

    /** A calibration entry's model, evaluated at the run's GPUs and hosts (the first lines say so). */
    private JudgedReference calibrated(Sweep sweep, CalibrationFile.Entry entry) {
        // above a joint entry's largest run, its fit on the runs nearest (--model names the pick on every run)
        PredictionModel m = PredictionSources.calibration(reference.calibration, entry.id(), model,
                sweep.hardware() == null ? null : sweep.hardware().ranks(), null, false);
        Comparability.Side side = new Comparability.Side(entry.collective() == null ? m.collective()
                : Collective.byName(entry.collective()).orElse(m.collective()), null, entry.ranks(), entry.nodes(),
                Comparability.gpuFamily(entry.gpuModel()).orElse(null));
        List<String> differ = Comparability.modelDifferences(Comparability.Side.of(sweep), side);
        if (!differ.isEmpty()) {
            mismatch("calibration entry " + entry.id(), side, sweep, differ);
        }
        Integer ranks = sweep.ranks() != null ? sweep.ranks() : entry.ranks();
        if (ranks == null) {
            throw new InputException(run, 0, "the GPU count is needed to turn the model's time into busbw; pass --gpus N");
        }
        Integer hosts = sweep.hardware() == null ? null : sweep.hardware().hosts();
        boolean oneTier = m.model().oneTier();
        Integer perHost = hosts == null || hosts < 1 || ranks % hosts != 0 ? null : ranks / hosts;
        Integer entryPerHost = entry.ranks() == null || entry.nodes() == null || entry.nodes() < 1
                || entry.ranks() % entry.nodes() != 0 ? null : entry.ranks() / entry.nodes();
        boolean otherHosts = hosts != null && entry.nodes() != null && !hosts.equals(entry.nodes());
        boolean otherPerHost = perHost != null && entryPerHost != null && !perHost.equals(entryPerHost)
                && (hosts > 1 || entry.nodes() > 1);
        if (oneTier && (otherHosts || otherPerHost)) {
            // a one-tier model has no term for the network a different host count adds or removes, nor for the
            // share of each step the network takes when the GPUs per host change (8 per host to 1 is no NVLink)
            differ = new ArrayList<>(differ);
            differ.add((otherHosts ? "hosts " + hosts + " vs " + entry.nodes()
                    : "GPUs per host " + perHost + " vs " + entryPerHost) + " (model " + m.name() + " is one tier: it"
                    + " has no term for another tier)");
            mismatch("calibration entry " + entry.id(), side, sweep, differ);
        }
        PredictionModel at;
        try {
            at = m.at(ranks, hosts);
        } catch (IllegalArgumentException e) {
            throw new HarnessException(ExitCode.USAGE, "calibration entry " + entry.id() + ": model " + m.name()
                    + " cannot be evaluated at this run's " + ranks + " GPUs" + (hosts == null ? "" : " on " + hosts
                    + " hosts") + " (" + e.getMessage() + "); calibrate a run of this scale");
        }
        String label = String.format(Locale.ROOT, "model %s of %s in %s, evaluated at the run's N = %d%s", m.name(),
                entry.id(), reference.calibration, ranks, hosts == null ? "" : " on " + hosts + " host"
                        + (hosts == 1 ? "" : "s"));
        List<String> notes = new ArrayList<>(at.notes());
        Comparability.Side me = Comparability.Side.of(sweep);
        if (side.gpuFamily() == null && me.gpuFamily() != null) {
            notes.add("calibration entry " + entry.id() + " does not state its GPU: that it is this run's "
                    + me.gpuFamily() + " is not checked");
        }
        if (!differ.isEmpty()) {
            notes.add(0, "NOT COMPARABLE (--allow-mismatch): " + String.join(", ", differ));
        }
        Reference rule = Reference.model(label, sweep, sweep.collective(), ranks, at::timeUs).withNotes(notes);
        return new JudgedReference(rule, FigureSeries.predicted("model " + m.name() + " of " + entry.id(), sweep.collective(), ranks,
                List.of(new ModelCurve(m.name(), at::timeUs))), null);
    }

    private Judged perIterationReport(RunDocument doc) {
        if (reference.baseline != null || reference.calibration != null) {
            throw new HarnessException(ExitCode.USAGE, "--per-iteration compares a run's own iterations;"
                    + " drop --baseline/--calibration");
        }
        if (!(spikeFactor > 1) || !(stragglerPct > 0)) {
            throw new HarnessException(ExitCode.USAGE, "--spike-factor must be above 1 and --straggler-pct above 0");
        }
        if (doc.format() != RunDocument.Format.JSON) {
            throw new InputException(run, 1, "--per-iteration reads JSON with per-iteration objects (a sweep's"
                    + " -I 1 -J FILE, ours or nccl-tests'), not a table");
        }
        SweepJson.Read read = doc.onlyJsonRun();
        return new Judged(new PerIterationCheck(spikeFactor, stragglerPct).check(run, read),
                RunContext.of(read.sweep(), doc), read.sweep(), null);
    }
}
