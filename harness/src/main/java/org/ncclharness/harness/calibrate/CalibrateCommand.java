package org.ncclharness.harness.calibrate;

import org.ncclharness.harness.figure.CalibrationReportPage;
import org.ncclharness.harness.options.LatencyConverter;
import org.ncclharness.harness.options.TierOptions;
import org.ncclharness.harness.runs.CalibrationInputs;
import org.ncclharness.harness.runs.NcclEstimateNotes;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.calibrate.DeferredCalibration;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationJson;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.CalibrationPipeline;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.CalibrationSummary;
import org.ncclharness.calibration.calibrate.Scoring;
import org.ncclharness.calibration.calibrate.CalibrationTable;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.calibration.calibrate.GridOptions;
import org.ncclharness.calibration.calibrate.TwoTierCalibration;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.fit.twotier.ParamRange;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.harness.options.NicOptions;
import org.ncclharness.harness.options.OutputFolder;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.Outputs;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.harness.options.AllowPredictedOption;
import org.ncclharness.harness.options.PredictedRows;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.harness.options.LogCollectiveOption;
import org.ncclharness.harness.options.RunMetadataOptions;
import org.ncclharness.harness.options.GridRangeOptions;
import org.ncclharness.harness.progress.GridProgressBar;
import org.ncclharness.harness.figure.ReportPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code calibrate [FILE...]}: fits the α-β model of docs/calibration.md to every bundled dataset, or to the files
 * given.
 */
@Command(name = "calibrate", addMethodSubcommands = false, sortOptions = false,
        description = {"Fit the alpha-beta model (README, `calibrate`) to nccl-tests measurements: one tier,"
                + " T(M) = alpha + f*M/beta_eff, saying how wrong each way of choosing alpha and beta is; two tiers"
                + " (NVLink domain + inter-domain fabric) for multi-domain runs.",
            "Without FILE: every bundled dataset. Multi-domain runs (NVLink domains joined by IB/RoCE) get every family"
                + " that applies: the protocol envelope as an effective single tier, the algorithm envelope (Ring/Tree x"
                + " LL/LL128/Simple across domains) and, for AllReduce, both two-tier forms (hierarchical, flat-ring, each"
                + " parameter with its 1%% profile); the one with the lowest leave-one-out RMSPE is picked (a tie to 0.1 point going to"
                + " fewer parameters) and --verbose says why."
                + " The one-line methods (A, B, naive) are not fitted to them.",
            "FILE: an nccl-tests or rccl-tests log (any generation), the project CSV or a sweep JSON; what the file does not"
                + " say comes from --gpus, --nodes, --interconnect (one tier) or --intra/--inter/--domain-size (two).",
            "--joint [ID|FILE...]: one two-tier fit across runs of the same hardware at different configurations (bundled"
                + " ids or files); without arguments, the bundled joint groups.",
            "--grid: the reference grid search too, beside every two-tier fit (box: --grid-points and the --grid-*"
                + " MIN:MAX:POINTS ranges)."})
public final class CalibrateCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Mixin
    LogCollectiveOption collective;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "logs, CSVs, sweep JSONs or bundled dataset ids; - reads stdin (default: every bundled dataset)")
    List<Path> files = new ArrayList<>();

    @Mixin
    RunMetadataOptions runMetadata;

    @Mixin
    TierOptions tiers;

    @Option(names = "--domain-size", paramLabel = "G",
            description = "two tiers: GPUs per NVLink domain (default: GPUs per host)")
    Integer domainSize;

    @Mixin
    NicOptions nicOptions;

    @Mixin
    AllowPredictedOption allowPredicted;

    @Option(names = "--joint", description = "fit the runs given (or the bundled joint groups) together: the two-tier"
            + " forms and the algorithm envelope, one of them picked, as one entry whose parameters hold at every"
            + " configuration")
    boolean joint;

    @Option(names = "--config", paramLabel = "FILE=GPUSxHOSTS",
            description = "the configuration of one file whose log does not show it, e.g. run.txt=16x2")
    Map<String, String> configs = new LinkedHashMap<>();

    @Option(names = "--topology", paramLabel = "NAME",
            description = "override the interconnect's topology: NVSwitch, direct, PCIe, switched-network")
    String topology;

    @Option(names = "--link-latency", paramLabel = "TIME", converter = LatencyConverter.class,
            description = "fix l_link for method B instead of fitting it, e.g. 0.936us")
    Double linkLatencyUs;

    @Option(names = "--json", paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "also write the report as JSON (schema " + CalibrationReport.SCHEMA + "); - for standard"
                    + " output (the text report then goes to standard error)")
    OutputTarget json;

    @Option(names = "--report", paramLabel = "DIR", converter = OutputFolder.Converter.class,
            description = "also write a page that opens from disk: DIR/index.html with the verdicts, the table and"
                    + " one figure per dataset (DIR/<id>.png)")
    OutputFolder report;

    @Option(names = {"-v", "--verbose"}, description = "print every model's RMSPE per size band, its parameters, the"
            + " two-tier profiles and the notes (default: one summary row per dataset)")
    boolean verbose;

    @Option(names = "--keep-glitches", description = "keep measurement glitches in the fit (a size whose placements"
            + " differ by over 2x, or whose time stands 1.5x above its neighbours' line while they agree); by default"
            + " they are listed in the notes and left out")
    boolean keepGlitches;

    @Mixin
    ExportOption export;

    @Option(names = "--force", description = "overwrite an existing --json, " + ExportOption.NCCL_TUNER + ", "
            + ExportOption.ASTRA_SIM + " or " + ExportOption.SIMAI + " file or --report page")
    boolean force;

    @Option(names = "--grid", description = "two tiers: also run the reference grid search (docs/model-accuracy.md; every"
            + " combination of the five parameters scored by overall RMSPE, no priors) for each form and report its best"
            + " beside the exact fit, as models grid-hierarchical and grid-flat-ring; a search over a second draws a"
            + " progress bar on stderr")
    boolean grid;

    @Option(names = "--grid-points", paramLabel = "R", defaultValue = "" + DEFAULT_GRID_POINTS,
            description = "with --grid: points per axis for every axis not set by a --grid-* range (default:"
                    + " ${DEFAULT-VALUE}; the box is the data's default)")
    int gridPoints;

    @Mixin
    GridRangeOptions gridRanges;

    static final int DEFAULT_GRID_POINTS = 20;
    private static final int BAR_LABEL_CHARS = 36;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (json != null) {
            json.checkWritable(force);
        }
        export.targets().forEach(t -> t.checkWritable(force));
        if (report != null) {
            ReportPage.checkWritable(report.path(), force);
        }
        HardwareFacts facts = HardwareFacts.bundled();
        if (topology != null && facts.topology(topology).isEmpty()) {
            throw new InputException("--topology", 0, "unknown topology " + topology + "; known: "
                    + String.join(", ", facts.topologyNames()));
        }
        if (linkLatencyUs != null && !(linkLatencyUs >= 0)) {
            throw new InputException("--link-latency", 0, "must be zero or positive");
        }
        Optional<GridOptions> gridOptions = gridOptions();
        List<CalibrationInput> in = joint ? jointInputs(facts) : inputs(facts);
        List<GlitchExclusion> glitches = CalibrationPipeline.glitches(in, keepGlitches);
        CalibrationReport calibration;
        try (CalibrationProgressBar bar = CalibrationProgressBar.onStderr()) {
            calibration = joint ? CalibrationPipeline.annotate(joint(facts, glitches.stream()
                    .map(GlitchExclusion::fitted).toList(), gridOptions), glitches)
                    : CalibrationPipeline.calibrate(facts, glitches, new CalibrationOptions(linkLatencyUs, topology,
                            scoring()), gridOptions, bar);
        }
        // the detailed table only where it is shown: --verbose prints it, the page holds it
        StringWriter table = new StringWriter();
        if (verbose || report != null) {
            CalibrationTable.write(new PrintWriter(table), calibration);
        }
        PrintWriter out = new PrintWriter(OutputTarget.reportStream(json, export.target, export.astraSim,
                export.simai), true);
        if (verbose) {
            // the detail, then the one row per dataset the short form gives (a multi-host run's detail has none)
            out.print(table);
            out.println("#");
        }
        CalibrationSummary.write(out, calibration, verbose);
        // the notes say it too, but the summary is what most read: a 0 % fit to a model's own curve is no result
        in.stream().filter(i -> i.sweep().provenance().kind() == SourceKind.PREDICTED).forEach(i -> out.println("# "
                + i.id() + ": predicted rows, fitted as if measured (--allow-predicted): its scores measure a model"
                + " against a model's own curve, not hardware"));
        in.stream().filter(i -> i.sweep().provenance().kind() == SourceKind.TEST_CLOCK).forEach(i -> out.println("# "
                + i.id() + ": " + i.sweep().provenance().label() + ": its fit describes a stand-in's arithmetic, not"
                + " hardware"));
        NcclEstimateNotes.lines(in).forEach(out::println);
        out.flush();
        if (calibration.entries().stream().allMatch(e -> e instanceof DeferredCalibration)) {
            throw new HarnessException(ExitCode.USAGE, "no table could be calibrated (each one's reason is above);"
                    + " nothing was written");
        }
        // The JSON and the page are written together, or neither; a JSON on standard output after the page
        Outputs outputs = new Outputs();
        if (report != null) {
            List<GlitchExclusion> shown = joint ? firstMembers(calibration, glitches) : glitches;
            outputs.addAll(CalibrationReportPage.of(shown, calibration, table.toString()).files(report.path()));
        }
        if (json != null) {
            outputs.add(json, o -> CalibrationJson.write(calibration, o));
        }
        List<ExportOption.Made> exports = export.make(calibration, files, ids());
        exports.forEach(e -> outputs.add(e.target(), Outputs.utf8(e.text())));
        outputs.commit(force);
        exports.forEach(e -> out.println(e.summary()));
        if (json != null && !json.isStdout()) {
            out.println("# report written to " + json);
        }
        if (report != null) {
            out.println("# page written to " + report.resolve("index.html"));
        }
        return ExitCode.OK;
    }

    /**
     * What is printed or written decides what is scored: the summary alone shows each run's pick and its score, so
     * only the families that can win it are scored out of sample; the detail, the JSON, the page and the exports
     * show or use every family's.
     */
    private Scoring scoring() {
        boolean summaryOnly = !verbose && json == null && report == null && export.target == null
                && export.astraSim == null && export.simai == null;
        return summaryOnly ? Scoring.PICK_ONLY : Scoring.EVERY_FAMILY;
    }

    private List<String> ids() {
        return files.stream().map(Path::toString).toList();
    }

    /** {@code --grid} with its box; the --grid-* flags alone are a usage error (they would silently do nothing). */
    private Optional<GridOptions> gridOptions() {
        Map<TwoTierParam, ParamRange> ranges = gridRanges.ranges();
        if (!grid) {
            Optional<String> stray = spec.commandLine().getParseResult().matchedOptions().stream()
                    .map(OptionSpec::longestName).filter(n -> n.startsWith("--grid-")).findFirst();
            if (stray.isPresent()) {
                throw new InputException(stray.get(), 0, "sets the grid search, which runs only with --grid; add --grid");
            }
            return Optional.empty();
        }
        PrintStream err = System.err;
        return Optional.of(new GridOptions(gridPoints, ranges, (id, form) -> new GridProgressBar(barLabel(id, form), err)));
    }

    /** The bar's task name: the form and the entry, a file by its name alone, short enough to leave room for the bar. */
    static String barLabel(String id, TwoTierForm form) {
        String name = id.substring(id.lastIndexOf('/') + 1);
        String label = "grid " + form.id() + " " + name;
        return label.length() <= BAR_LABEL_CHARS ? label : label.substring(0, BAR_LABEL_CHARS - 3) + "...";
    }

    private List<CalibrationInput> inputs(HardwareFacts facts) {
        if (files.isEmpty()) {
            return CalibrationInputs.bundled();
        }
        return CalibrationInputs.bundledOrFiles(files, flags(), configs, facts);
    }

    private CalibrationInputs.Flags flags() {
        tiers.agreeWith(runMetadata.interconnect());
        return new CalibrationInputs.Flags(runMetadata.gpus(), runMetadata.nodes(), runMetadata.interconnect(),
                tiers.intra(), tiers.inter(), domainSize, collective.value(), nicOptions.nics())
                .withPredicted(allowPredicted.rows(PredictedRows.Command.CALIBRATE));
    }

    /** {@code --joint}: the runs given (bundled ids or files), or every bundled dataset for the bundled groups. */
    private List<CalibrationInput> jointInputs(HardwareFacts facts) {
        return files.isEmpty() ? CalibrationInputs.bundled()
                : CalibrationInputs.bundledOrFiles(files, flags(), configs, facts);
    }

    /** {@code --joint}: one entry for the runs given, or one per bundled joint group. */
    private CalibrationReport joint(HardwareFacts facts, List<CalibrationInput> in, Optional<GridOptions> grid) {
        TwoTierCalibrator two = new TwoTierCalibrator(facts, grid);
        return new CalibrationReport(files.isEmpty() ? List.copyOf(two.bundledJoint(in))
                : List.of(two.joint("joint", in)));
    }

    /** For the page, which draws one sweep per entry: each joint entry's first member. */
    private static List<GlitchExclusion> firstMembers(CalibrationReport calibration, List<GlitchExclusion> in) {
        return calibration.entries().stream().map(e -> ((TwoTierCalibration) e).members().get(0))
                .map(id -> in.stream().filter(x -> x.original().id().equals(id)).findFirst().orElseThrow()).toList();
    }
}
