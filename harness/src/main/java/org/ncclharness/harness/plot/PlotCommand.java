package org.ncclharness.harness.plot;

import org.ncclharness.harness.figure.BusBwChart;
import org.ncclharness.harness.figure.CalibratedSeries;
import org.ncclharness.harness.figure.ChartFile;
import org.ncclharness.harness.figure.Figure;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.FigureView;
import org.ncclharness.harness.figure.RingTreeFigure;
import org.ncclharness.harness.figure.SizeRange;
import org.ncclharness.harness.options.NicOptions;
import org.ncclharness.harness.options.HelpOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.model.NcclBaseline;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.harness.options.LogCollectiveOption;
import org.ncclharness.harness.runs.InputErrors;
import org.ncclharness.harness.options.OutputImage;
import org.ncclharness.harness.runs.RunInputs;
import org.ncclharness.harness.runs.TableName;
import org.ncclharness.harness.options.PredictionSourceOptions;
import picocli.CommandLine.Mixin;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.DeferredCalibration;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.calibration.calibrate.SingleTierCalibrator;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.runs.CalibrationInputs;
import org.ncclharness.harness.options.TierOptions;
import picocli.CommandLine.Command;
import org.ncclharness.harness.options.AllowPredictedOption;
import org.ncclharness.harness.options.CountConverter;
import org.ncclharness.harness.options.PredictedRows;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code plot INPUT... --out FILE.png|FILE.svg}: bus bandwidth against message size, one series per input, and
 * with {@code --model} the calibrated models drawn over the points.
 */
@Command(name = "plot", addMethodSubcommands = false, sortOptions = false,
        description = {"Draw bus bandwidth (GB/s) against message size (log2 axis, 1K ... 8G) as PNG or SVG, "
                + "one series of markers per input (each its own marker shape, each curve its own dash); --view time "
                + "draws time per iteration instead (log-log, the latency view). Each legend entry says where its "
                + "numbers came from (dataset, stored, replay, predicted).",
            "INPUT is a bundled dataset id (see `datasets`), an nccl-tests/rccl-tests log, a harness CSV or a "
                + "sweep JSON file; a log with several tables gives one series per table.",
            "--model calibrates each input as `calibrate` does and draws the named models over its points, with "
                + "beta_phys dashed and NVLS/SHARP runs flagged; files then need what `calibrate` needs "
                + "(--interconnect, and --gpus/--nodes where the file does not say).",
            "--predict draws predicted curves, labelled 'predicted:', from the sources `predict` takes (--dataset ID, "
                + "--calibration FILE, --interconnect NAME --gpus N, --bandwidth BW --step-latency L --gpus N) over "
                + "1K ... 8G; with --algo Ring,Tree the model's Ring and Tree (a single-tier model's ideal forms, the "
                + "algorithm envelope's fastest protocol of each) with the crossover `predict` names marked. INPUTs "
                + "given beside it are drawn as points."})
public final class PlotCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;
    private static final int DEFAULT_HEIGHT_PX = 600;
    private static final int DEFAULT_HEIGHT_WITH_RESIDUALS_PX = 800;

    @Parameters(paramLabel = "INPUT", arity = "0..*", description = "dataset id or file; - for standard input")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--out", required = true, paramLabel = "FILE", converter = OutputImage.Converter.class,
            description = "image to write; the format follows the name: .png or .svg (a file: not -)")
    OutputImage out;

    @Option(names = "--model", split = ",", paramLabel = "NAME", arity = "0..1", fallbackValue = FITTED,
            description = "models to draw over the points; alone (or 'fitted'): every model calibrate fits to the"
                    + " input, the one it picks marked; by name: A, B, B+beta, naive, envelope (calibrate's single-tier"
                    + " fits; on a multi-domain run envelope is its effective single tier), algorithms (Ring/Tree x"
                    + " protocols across domains), nccl (NCCL's tuner, an estimate, never fitted), two-tier (the"
                    + " better two-tier form of a multi-domain run), hierarchical, flat-ring (one two-tier form); with"
                    + " --predict: the one model to predict with (default: the best; with --algo B, else algorithms)")
    List<String> models = new ArrayList<>();
    /** {@code --model} with no name: every model fitted. */
    private static final String FITTED = "fitted";

    @Option(names = "--view", paramLabel = "VIEW", defaultValue = "busbw",
            description = "busbw (bus bandwidth, linear axis; the default), busbw-log (bus bandwidth, log axis) or"
                    + " time (time per iteration, log-log: the latency view, where the small sizes show)")
    String view;

    @Option(names = "--residuals", description = "add a panel with each model's time error (%%) per measured size")
    boolean residuals;

    @Option(names = "--gpus", paramLabel = "N", converter = CountConverter.class,
            description = "with --model: GPU count, for files that do not say; with --predict: N to predict at")
    Integer gpus;

    @Option(names = "--nodes", paramLabel = "N", converter = CountConverter.class,
            description = "with --model: node count, for files that do not say; with --predict: nodes to predict at")
    Integer nodes;

    @Mixin
    TierOptions tiers;

    @Mixin
    NicOptions nicOptions;

    @Option(names = "--domain-size", paramLabel = "G",
            description = "two tiers: GPUs per NVLink domain, as calibrate takes it (default: GPUs per host)")
    Integer domainSize;

    @Mixin
    LogCollectiveOption collective;

    @Option(names = "--keep-glitches", description = "fit with the measurement glitches that --model leaves out"
            + " by default, as calibrate --keep-glitches")
    boolean keepGlitches;

    @Option(names = "--predict", description = "draw a prediction (see above); never mistakable for measurements")
    boolean predict;

    @Option(names = "--algo", split = ",", paramLabel = "ALGO",
            description = "with --predict: Ring, Tree or Ring,Tree, the ideal forms (README, `predict`) from the"
                    + " model's ring latency and bandwidth; two of them mark their crossover")
    List<String> algos = new ArrayList<>();

    @Mixin
    PredictionSourceOptions source;
    /** --model fits as calibrate does, so it takes or refuses predicted rows by calibrate's rule */
    @Mixin
    AllowPredictedOption allowPredicted;

    @Option(names = "--width", paramLabel = "PX", defaultValue = "1000", description = "width in pixels (default 1000)")
    int width;

    @Option(names = "--height", paramLabel = "PX",
            description = "height in pixels (default 600, 800 with --residuals)")
    Integer height;

    @Option(names = "--force", description = "overwrite FILE if it exists")
    boolean force;

    @Override
    public Integer call() {
        int h = height != null ? height : residuals ? DEFAULT_HEIGHT_WITH_RESIDUALS_PX : DEFAULT_HEIGHT_PX;
        ChartFile.Format.of(out.path());
        ChartFile.checkSize(width, h);
        FigureView.of(view);
        if (predict) {
            return predicted(h);
        }
        if (inputs.isEmpty()) {
            throw new InputException("plot", 0, "name an INPUT (a dataset id or a file), or draw a prediction with"
                    + " --predict");
        }
        if (!algos.isEmpty() || source.anyPredictionOnly()) {
            throw new InputException(algos.isEmpty() ? "--dataset/--calibration/--bandwidth/--step-latency" : "--algo",
                    0, "describes a prediction: add --predict");
        }
        for (String m : models) {
            if (!m.equals(FITTED) && !CalibratedSeries.MODELS.contains(m)) {
                throw new InputException("--model", 0, "unknown model " + m + "; known: " + FITTED + " (every one"
                        + " fitted), " + String.join(", ", CalibratedSeries.MODELS));
            }
        }
        if (residuals && models.isEmpty()) {
            throw new InputException("--residuals", 0, "residuals are a model's errors: add --model");
        }
        if (allowPredicted.rows(PredictedRows.Command.PLOT).allowed() && models.isEmpty()) {
            throw new InputException("--allow-predicted", 0, "takes predicted rows into a fit: add --model (without"
                    + " it plot draws any rows, a prediction's labelled as such)");
        }
        OutputFile.checkWritable(out.path(), force);
        List<FigureSeries> series = models.isEmpty() ? measuredSeries() : calibratedSeries();
        Figure figure = Figure.of(series);
        if (residuals) {
            if (series.stream().allMatch(s -> s.models().isEmpty())) {
                throw new InputException("--residuals", 0, "no input could be calibrated, so there are no residuals");
            }
            figure = figure.withResiduals(true);
        }
        return write(figure, h);
    }

    private int write(Figure figure, int h) {
        ChartFile.write(figure.withView(FigureView.of(view)), out.path(), width, h, force);
        System.out.println("wrote " + out + " (" + figure.series().size() + " series: "
                + String.join("; ", figure.series().stream().map(FigureSeries::legendLabel).toList()) + ")");
        return ExitCode.OK;
    }

    /** {@code --predict}: the model's curve, or its Ring and Tree forms, with any INPUT's points beside them. */
    private int predicted(int h) {
        if (residuals) {
            throw new InputException("--residuals", 0, "a prediction has no measured times to be wrong about");
        }
        if (models.size() > 1) {
            throw new InputException("--model", 0, "--predict uses one model; got " + String.join(",", models));
        }
        List<RingTreeFigure.Choice> algorithms = RingTreeFigure.algorithms(algos);
        String model = models.isEmpty() || models.contains(FITTED) ? null : models.get(0);
        OutputFile.checkWritable(out.path(), force);
        java.util.function.Function<String, PredictionModel> byName = name -> source.resolve("plot", name, gpus, nodes);
        PredictionModel pm;
        if (algorithms.isEmpty() || !source.namesAModel()) {
            pm = byName.apply(model);
        } else {
            // a calibration or a dataset holds several models: the one named, else one with a Ring and a Tree
            pm = model == null ? RingTreeFigure.defaultModel(byName) : RingTreeFigure.named(byName.apply(model), byName);
        }
        List<FigureSeries> series = new ArrayList<>(measuredSeries());
        series.add(0, algorithms.isEmpty() ? RingTreeFigure.modelSeries(pm) : RingTreeFigure.series(pm, algorithms));
        SizeRange range = RingTreeFigure.range(series);
        long[] samples = BusBwChart.samples(range);
        pm.notesFor(java.util.Arrays.stream(samples).asDoubleStream().toArray())
                .forEach(n -> System.err.println("plot: note: " + n));
        if (algorithms.size() == 2) {
            System.out.println(RingTreeFigure.crossoverLine(pm));
        }
        Figure figure = Figure.of(series).withRange(range);
        return write(algorithms.size() == 2 ? figure.withCrossoverAt(RingTreeFigure.crossoverBytes(pm)) : figure, h);
    }

    /** A file when one exists by that name (or {@code -}), else a bundled dataset id. */
    private static boolean isFile(String input) {
        return RunInputs.isFile(input);
    }

    private static Dataset dataset(String id) {
        return RunInputs.dataset(id).orElseThrow(() -> RunInputs.notFound(id));
    }

    private List<FigureSeries> measuredSeries() {
        List<FigureSeries> out = new ArrayList<>();
        List<List<Sweep>> read = InputErrors.readEach(inputs, input -> RunInputs.read(input, collective.value()));
        for (int k = 0; k < inputs.size(); k++) {
            String input = inputs.get(k);
            List<Sweep> sweeps = read.get(k);
            for (int i = 0; i < sweeps.size(); i++) {
                out.add(labelled(input, sweeps.get(i), FigureSeries.of(sweeps.get(i)), i, sweeps.size()));
            }
        }
        return out;
    }

    /**
     * Calibrates each input as {@code calibrate} would (a bundled dataset's two-tier fit takes its priors from the
     * bundled datasets, a file's from the files given) and draws the named models; says what it could not draw.
     */
    private List<FigureSeries> calibratedSeries() {
        HardwareFacts facts = HardwareFacts.bundled();
        tiers.agreeWith(source.interconnect());
        CalibrationInputs.Flags flags = new CalibrationInputs.Flags(gpus, nodes, source.interconnect(), tiers.intra(),
                tiers.inter(), domainSize, collective.value(), nicOptions.nics())
                .withPredicted(allowPredicted.rows(PredictedRows.Command.PLOT));
        Map<String, List<CalibrationInput>> read = new LinkedHashMap<>();
        List<List<CalibrationInput>> each = InputErrors.readEach(inputs, input -> isFile(input)
                ? CalibrationInputs.files(List.of(Path.of(input)), flags, facts)
                : List.of(CalibrationInputs.of(dataset(input), flags)));
        for (int k = 0; k < inputs.size(); k++) {
            read.put(inputs.get(k), each.get(k));
        }
        List<CalibrationInput> files = inputs.stream().filter(PlotCommand::isFile)
                .flatMap(i -> read.get(i).stream()).toList();
        SingleTierCalibrator oneTier = new SingleTierCalibrator(facts, CalibrationOptions.defaults());
        TwoTierCalibrator twoTiers = new TwoTierCalibrator(facts);
        List<CalibrationInput> bundled = null;
        List<FigureSeries> out = new ArrayList<>();
        for (Map.Entry<String, List<CalibrationInput>> r : read.entrySet()) {
            boolean file = isFile(r.getKey());
            for (CalibrationInput in : r.getValue()) {
                // fitted as calibrate fits it (glitches left out), drawn over every measured point
                GlitchExclusion glitches = GlitchExclusion.of(in, keepGlitches);
                CalibrationInput fit = glitches.fitted();
                CalibrationEntry entry = oneTier.calibrate(fit);
                // a multi-domain run gets no one-line fit: its envelope, algorithms and two tiers come from here
                if (entry instanceof DeferredCalibration d && DeferredCalibration.TWO_TIER.equals(d.awaiting())) {
                    if (!file && bundled == null) {
                        bundled = CalibrationInputs.bundled();
                    }
                    entry = twoTiers.calibrate(fit, file ? files : bundled);
                }
                NcclBaseline nccl = models.contains(CalibratedSeries.NCCL)
                        ? ncclBaseline(in, file ? null : dataset(r.getKey()).metadata()) : null;
                CalibratedSeries.Drawn drawn = CalibratedSeries.draw(in.sweep(), entry, nccl,
                        models.contains(FITTED) ? List.of() : models);
                drawn.notDrawn().forEach((m, why) -> System.err.println(in.id() + ": model " + m + " not drawn: " + why));
                if (nccl != null && nccl.model().isPresent()) {
                    System.err.println(in.id() + ": the nccl estimate assumes: " + String.join("; ", nccl.notes()));
                }
                out.add(labelled(r.getKey(), in.sweep(), drawn.series().withLeftOut(glitches.leftOut()),
                        r.getValue().indexOf(in), r.getValue().size()));
            }
        }
        return out;
    }

    /** NCCL's tuner set up from what the dataset's metadata (or the log's preamble and channel counts) states. */
    private static NcclBaseline ncclBaseline(CalibrationInput in, DatasetMetadata md) {
        Sweep s = in.sweep();
        Hardware hw = s.hardware() == null ? Hardware.unknown() : s.hardware();
        if (hw.ranks() == null) {
            hw = hw.withRanks(s.ranks());
        }
        // the NICs as resolved (the flags over what the input states), the same facts calibrate and check take
        Integer nics = in.nics().perHost();
        Double nicGbps = in.nics().statedGbps();
        if (md != null) {
            return NcclBaseline.of(s.collective(), hw, md.ncclVersion(), nics, nicGbps);
        }
        String version = s.run() != null && "nccl-tests".equals(s.run().library()) ? s.run().libraryVersion() : null;
        return NcclBaseline.of(s.collective(), hw, version, nics, nicGbps, in.loggedChannels());
    }

    /** Several tables of one log differ by datatype and op; the legend must tell them apart. */
    /** One table of several is named by its number and collective: two tables never share a legend entry. */
    private static FigureSeries labelled(String input, Sweep s, FigureSeries fs, int index, int tables) {
        if (fs.points().isEmpty()) {
            throw new InputException(input, 0, "no row with a bus bandwidth to plot");
        }
        if (tables == 1) {
            return fs;
        }
        return fs.withLabel(fs.label() + " · table " + (index + 1) + ": " + TableName.of(s));
    }
}
