package org.ncclharness.harness.check;

import org.ncclharness.harness.NicOptions;
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
import java.util.Objects;
import java.util.Optional;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.Severity;
import org.ncclharness.calibration.diagnose.Diagnoser;
import org.ncclharness.calibration.diagnose.DiagnosisWriter;
import org.ncclharness.calibration.diagnose.Diagnosis;
import org.ncclharness.calibration.check.Comparability;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.check.RunContext;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.io.LogFacts;
import org.ncclharness.calibration.datasets.RawDataset;
import org.ncclharness.calibration.hardware.GpuFabrics;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;
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
import org.ncclharness.harness.LogCollectiveOption;
import org.ncclharness.harness.TableName;
import org.ncclharness.harness.RunInputs;
import org.ncclharness.harness.predict.BandwidthConverter;
import org.ncclharness.harness.HarnessException;
import org.ncclharness.harness.RunMetadataOptions;
import org.ncclharness.harness.calibrate.TierOptions;
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
    @Option(names = "--fail-below", paramLabel = "PCT", description = "FAIL below this %% of the reference at the largest common size (default 75; against the line rate, where it is the reference, only when given: else 25 %% across hosts)")
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
    @Option(names = "--markdown", paramLabel = "OUT", description = "also write the bring-up record as Markdown: the"
            + " verdict and its reasons, the run (hosts, GPUs, NCCL and nccl-tests versions, CUDA, driver, date, command"
            + " line, NCCL_* environment, as far as stated), the findings, the per-size table, and the figure beside it"
            + " (OUT with .png for .md)")
    Path markdown;
    @Option(names = "--report", paramLabel = "DIR", description = "also write a page that opens from disk:"
            + " DIR/index.html with the verdict, the findings, the per-size table and the figure of the run (and the"
            + " reference)")
    Path page;
    @Option(names = "--force", description = "overwrite an existing --markdown file or --report page")
    boolean force;

    /** A report and what its page draws: the run's rows and the reference as a series (null without one). */
    private record Judged(CheckReport report, RunContext context, Sweep run, FigureSeries reference) { }

    @Override
    public Integer call() {
        if (markdown != null) {
            OutputFile.checkWritable(markdown, force);
            OutputFile.checkWritable(figureBeside(markdown), force);
        }
        if (page != null) {
            ReportPage.checkWritable(page, force);
        }
        List<Judged> judged;
        try {
            judged = perIteration ? List.of(perIterationReport()) : healthReports();
        } catch (InputException e) {
            return perIteration ? rethrow(e) : failedBeforeATable(e);
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
            md.append(CheckReportWriter.markdown(report, judged.get(i).context(), i == 0 && markdown != null
                    ? figureBeside(markdown).getFileName().toString() : null));
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
            files.putAll(CheckReportPage.of(one.report(), one.context(), one.run(), one.reference(), printed.toString())
                    .files(page));
        }
        if (markdown != null) {
            String mdText = md.toString();
            files.put(markdown, o -> o.write(mdText.getBytes(StandardCharsets.UTF_8)));
            Judged first = judged.get(0);
            CheckReportPage.figure(first.run(), first.reference())
                    .ifPresent(f -> files.put(figureBeside(markdown), ReportPage.png(f)));
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

    private static Integer rethrow(InputException e) {
        throw e;
    }

    /**
     * A log with no result table whose own lines say the run failed (a rank's 'Test NCCL failure', an IB
     * completion error, a socket that could not connect) is a failed run, not bad input: a script gets FAIL (exit
     * 1) with the reasons, not the usage error (exit 2) a typo gets. Anything else stays the input error.
     */
    private Integer failedBeforeATable(InputException e) {
        List<String> lines = e.getMessage().contains("no nccl-tests result table found") ? logLines() : List.of();
        List<Diagnosis.Issue> fails = lines.isEmpty() ? List.of() : Diagnoser.diagnose(run, lines).findings().stream()
                .filter(i -> i.severity() == Severity.FAIL).toList();
        if (fails.isEmpty()) {
            throw e;
        }
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        out.println("# check: " + run);
        out.println("FAIL: no result table: the run stopped before its first size, and its lines say why");
        fails.forEach(i -> out.println("FAIL: diagnosis " + i.code() + ": " + i.message() + " (" + i.evidence()
                + "); fix: " + i.fix()));
        out.println("Verdict: FAIL (" + (fails.size() + 1) + " reasons)");
        out.flush();
        return ExitCode.FAIL;
    }

    /** The figure file a Markdown record links to: {@code bringup.md} → {@code bringup.png}. */
    static Path figureBeside(Path md) {
        String name = md.getFileName().toString();
        String stem = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
        return md.resolveSibling(stem + ".png");
    }

    /** The log's lines besides its tables: a file's, a bundled dataset's raw source; none for stdin. */
    private List<String> logLines() {
        Optional<Dataset> bundled = DatasetCatalog.bundled().find(run);
        if (bundled.isPresent()) {
            return bundled.get().rawLines();
        }
        if (!RunInputs.isFile(run) || run.equals("-")) {
            return List.of(); // stdin was read for the tables and cannot be read again
        }
        return Inputs.text(run).lines().toList();
    }

    /**
     * What the log's NCCL lines say, next to the bandwidth verdict (as INFO: the verdict stays the bandwidth's;
     * the diagnosis says why it is what it is). Logs without NCCL lines add nothing.
     */
    private static final String RUN_FAILED_CODE = "TEST_FAILED";

    private List<Finding> diagnosis(List<String> lines) {
        Diagnosis d = Diagnoser.diagnose(run, lines);
        List<Finding> out = new ArrayList<>();
        DiagnosisWriter.transportLine(d).ifPresent(t -> out.add(Finding.info("diagnosis", t)));
        // a rank that stopped on an NCCL or CUDA error fails the run whatever its numbers say; the rest of the
        // diagnosis is context for the reader (diagnose judges it)
        d.findings().stream().filter(i -> i.severity() != Severity.INFO && !i.code().equals("NO_NCCL_LINES"))
                .map(i -> new Finding(i.code().equals(RUN_FAILED_CODE) ? Severity.FAIL : Severity.INFO,
                        i.code().equals(RUN_FAILED_CODE) ? "run-failed" : "diagnosis", null, "diagnosis " + i.code()
                        + ": " + i.message() + " (" + i.evidence() + "); fix: " + i.fix())).forEach(out::add);
        return out;
    }

    /** One report per table of the run: a multi-table log is judged table by table. */
    private List<Judged> healthReports() {
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
        List<Sweep> sweeps = RunSource.readAll(run, new RunSource.Flags(runMetadata.gpus(), runMetadata.nodes(),
                runMetadata.interconnect(), tiers.intra(), tiers.inter()), collective.value());
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
        if (expectBusBw != null && !(expectBusBw > 0)) {
            throw new HarnessException(ExitCode.USAGE, "--expect-busbw takes GB/s above 0, got " + expectBusBw);
        }
        // a --warn-below / --fail-below the user typed holds against the line rate too
        var parsed = spec.commandLine().getParseResult();
        CheckRules rules = new CheckRules(warnBelow, failBelow, dip, minBusBw(), failOnWrong, warnLatency)
                .withLineRate(parsed.hasMatchedOption("--warn-below") ? warnBelow : null,
                        parsed.hasMatchedOption("--fail-below") ? failBelow : null);
        List<String> logLines = logLines();
        LogFacts log = LogFacts.of(logLines);
        List<Finding> diagnosis = diagnosis(logLines);
        Nics nics = nics(log);
        DatasetMetadata meta = DatasetCatalog.bundled().find(run).map(Dataset::metadata).orElse(null);
        List<Judged> out = new ArrayList<>();
        for (Sweep table : sweeps) {
            List<Finding> context = new ArrayList<>();
            // the --calibration entry is resolved once per table: its fabric, its NICs and its model
            CalibrationFile.Entry entry = reference.calibration == null ? null : calibrationEntry(table);
            Sweep sweep = withNamedFabric(entry == null ? table : withCalibratedFabric(table, entry, context),
                    context);
            Nics tableNics = entry == null ? nics : nics.orElse(calibratedNics(sweep, entry));
            JudgedReference ref = reference(sweep, facts, tableNics.perHost(), entry);
            HealthCheck.Against against = new HealthCheck.Against(ref == null ? null : ref.rule(), expectBusBw,
                    tableNics);
            CheckReport report = new HealthCheck(facts, rules).check(run, sweep, against);
            if (ref != null && ref.why() != null) {
                context.add(Finding.info("reference", ref.why()));
            }
            HealthCheck.replay(sweep).ifPresent(context::add);
            report = report.withFindings(context, diagnosis);
            out.add(new Judged(report, RunContext.of(withRawDevices(sweep, meta, logLines), log, meta), sweep, ref == null ? null : ref.series()));
        }
        return out;
    }

    /**
     * A bundled dataset's table comes from its CSV, which has no device lines; its raw source has them, and the
     * ticket names the hosts from them. Unreadable raw text leaves the table as it is.
     */
    private static Sweep withRawDevices(Sweep sweep, DatasetMetadata meta, List<String> raw) {
        if (meta == null || !sweep.devices().isEmpty() || raw.isEmpty()) {
            return sweep;
        }
        try {
            List<Sweep> parsed = Inputs.parse(meta.id() + ".txt", String.join("\n",
                    RawDataset.parse(meta.id() + ".txt", raw).raw()));
            List<Device> devices = parsed.isEmpty() ? List.of() : parsed.get(0).devices();
            return new Sweep(sweep.provenance(), sweep.collective(), sweep.run(), sweep.hardware(), devices,
                    sweep.rows(), sweep.notes(), sweep.trailer());
        } catch (InputException | IllegalArgumentException e) {
            return sweep;
        }
    }

    /**
     * The flags, else a bundled dataset's metadata, else the log's own {@code NET/IB : Using} lines (a count, no
     * speed).
     */
    private Nics nics(LogFacts log) {
        Nics bundled = DatasetCatalog.bundled().find(run).map(d -> d.metadata().nics()).orElse(Nics.UNKNOWN);
        return nicOptions.nics().orElse(bundled).orElse(new Nics(log.nicsPerHost(), null));
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

    private JudgedReference reference(Sweep sweep, HardwareFacts facts, Integer nics, CalibrationFile.Entry entry) {
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
        // a bundled run's metadata, else what the log says was forced
        String algo = DatasetCatalog.bundled().find(run).map(d -> d.metadata().algo())
                .orElse(sweep.run() == null ? null : sweep.run().forcedAlgo());
        return JudgedReference.expected(sweep, run, nics, algo, facts);
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
     * A run that does not state its fabric is judged on the one its calibration was fitted on (the line-rate rule
     * needs it), and the report says where the fabric came from.
     */
    private Sweep withCalibratedFabric(Sweep sweep, CalibrationFile.Entry entry, List<Finding> context) {
        Hardware was = sweep.hardware() == null ? Hardware.unknown() : sweep.hardware();
        Sweep filled = RunSource.withFabric(run, withCalibratedHosts(sweep, entry, context), entry.intra(),
                entry.inter(), entry.interconnect());
        Hardware now = filled.hardware();
        if (!Objects.equals(was.intra(), now.intra()) || !Objects.equals(was.inter(), now.inter())) {
            context.add(Finding.info("fabric", "the run does not state its interconnect: judged on calibration entry "
                    + entry.id() + "'s (" + (now.intra() == null ? "" : now.intra() + " inside a host")
                    + (now.intra() != null && now.inter() != null ? ", " : "")
                    + (now.inter() == null ? "" : now.inter() + " between hosts") + "); --interconnect overrides it"));
        }
        return filled;
    }

    /**
     * A one-host run that states no fabric is judged on the one its GPU name tells (an SXM A100 is on NVLink3,
     * hardware/gpu-fabrics.json), as its expected curve is chosen, and the report says so; across hosts the name
     * says nothing of the network, and a PCIe card's nothing of its links.
     */
    private static Sweep withNamedFabric(Sweep sweep, List<Finding> context) {
        Hardware h = sweep.hardware() == null ? Hardware.unknown() : sweep.hardware();
        // one host known, not assumed: a list of one process's GPUs leaves the host count open
        if (h.intra() != null || h.inter() != null || !Objects.equals(h.hosts(), 1)) {
            return sweep;
        }
        String gpu = sweep.gpuName();
        Optional<String> named = GpuFabrics.bundled().intraFor(gpu);
        if (named.isEmpty()) {
            return sweep;
        }
        context.add(Finding.info("fabric", "the run does not state its interconnect: " + named.get() + " from the GPU"
                + " name " + gpu + "; --interconnect overrides it"));
        return sweep.withHardware(new Hardware(gpu, h.ranks(), h.hosts(), h.domainSize(), h.domains(), named.get(),
                null));
    }

    /**
     * A run that does not state its hosts, at the GPU count its multi-host calibration entry ran, is taken to
     * have run on that entry's hosts (else its busbw would be judged against the tier inside one host); the
     * report says so, and --nodes overrides it.
     */
    private static Sweep withCalibratedHosts(Sweep sweep, CalibrationFile.Entry entry, List<Finding> context) {
        Hardware h = sweep.hardware() == null ? Hardware.unknown() : sweep.hardware();
        Integer nodes = entry.nodes();
        if (h.hosts() != null || h.ranks() == null || nodes == null || nodes < 2 || !h.ranks().equals(entry.ranks())
                || h.ranks() % nodes != 0) {
            return sweep;
        }
        context.add(Finding.info("hosts", "the run does not state its hosts: taken as the " + nodes + " hosts its"
                + " calibration entry " + entry.id() + " ran at the same " + h.ranks() + " GPUs; --nodes overrides it"));
        return sweep.withHardware(new Hardware(h.gpuModel(), h.ranks(), nodes, h.ranks() / nodes, nodes, h.intra(),
                h.inter()));
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
        PredictionModel m = PredictionSources.calibration(reference.calibration, entry.id(), model);
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
        return new Judged(new PerIterationCheck(spikeFactor, stragglerPct).check(run, read),
                RunContext.of(read.sweep(), LogFacts.none(), null), read.sweep(), null);
    }
}
