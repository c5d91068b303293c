package org.ncclharness.harness.plot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.io.OutputFile;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.report.CalibrationEntry;
import org.ncclharness.calibration.report.CalibrationInput;
import org.ncclharness.calibration.report.CalibrationOptions;
import org.ncclharness.calibration.report.DeferredCalibration;
import org.ncclharness.calibration.report.SingleTierCalibration;
import org.ncclharness.calibration.report.SingleTierCalibrator;
import org.ncclharness.harness.ExitCode;
import org.ncclharness.harness.calibrate.CalibrationInputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code plot INPUT... --out FILE.png|FILE.svg}: bus bandwidth against message size, one series per input, and
 * with {@code --model} the calibrated models drawn over the points.
 */
@Command(name = "plot", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Draw bus bandwidth (GB/s) against message size (log2 axis, 1K ... 8G) as PNG or SVG, "
                + "one series of markers per input. Each legend entry says where its numbers came from "
                + "(dataset, stored, replay, predicted).",
            "INPUT is a bundled dataset id (see `datasets`), an nccl-tests/rccl-tests log, a harness CSV or a "
                + "sweep JSON file; a log with several tables gives one series per table.",
            "--model calibrates each input as `calibrate` does and draws the named models over its points, with "
                + "beta_phys dashed and NVLS/SHARP runs flagged; files then need what `calibrate` needs "
                + "(--interconnect, and --gpus/--nodes where the file does not say)."})
public final class PlotCommand implements Callable<Integer> {
    private static final int DEFAULT_HEIGHT_PX = 600;
    private static final int DEFAULT_HEIGHT_WITH_RESIDUALS_PX = 800;

    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "dataset id or file; - for standard input")
    List<String> inputs;

    @Option(names = "--out", required = true, paramLabel = "FILE",
            description = "image to write; the format follows the name: .png or .svg")
    Path out;

    @Option(names = "--model", split = ",", paramLabel = "NAME",
            description = "models to draw over the points: A, B, B+beta, naive (calibrate's models)")
    List<String> models = new ArrayList<>();

    @Option(names = "--residuals", description = "add a panel with each model's time error (%) per measured size")
    boolean residuals;

    @Option(names = "--gpus", paramLabel = "N", description = "with --model: GPU count, for files that do not say")
    Integer gpus;

    @Option(names = "--nodes", paramLabel = "N", description = "with --model: node count, for files that do not say")
    Integer nodes;

    @Option(names = "--interconnect", paramLabel = "NAME", description = "with --model: the files' interconnect")
    String interconnect;

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
        ChartFile.Format.of(out);
        ChartFile.checkSize(width, h);
        for (String m : models) {
            if (!SingleTierCalibrator.MODELS.contains(m)) {
                throw new InputException("--model", 0, "unknown model " + m + "; known: "
                        + String.join(", ", SingleTierCalibrator.MODELS));
            }
        }
        if (residuals && models.isEmpty()) {
            throw new InputException("--residuals", 0, "residuals are a model's errors: name the models with --model");
        }
        OutputFile.checkWritable(out, force);
        List<FigureSeries> series = new ArrayList<>();
        for (String input : inputs) {
            series.addAll(models.isEmpty() ? seriesOf(input) : calibratedSeriesOf(input));
        }
        Figure figure = Figure.of(series);
        if (residuals) {
            if (series.stream().allMatch(s -> s.models().isEmpty())) {
                throw new InputException("--residuals", 0, "no input could be calibrated, so there are no residuals");
            }
            figure = figure.withResiduals(true);
        }
        ChartFile.write(figure, out, width, h, force);
        System.out.println("wrote " + out + " (" + series.size() + " series: "
                + String.join("; ", series.stream().map(FigureSeries::legendLabel).toList()) + ")");
        return ExitCode.OK;
    }

    /** A file when one exists by that name (or {@code -}), else a bundled dataset id. */
    private static boolean isFile(String input) {
        return input.equals("-") || Files.exists(Path.of(input));
    }

    private static Dataset dataset(String id) {
        return DatasetCatalog.bundled().find(id).orElseThrow(() -> new InputException(id, 0,
                "neither a file nor a bundled dataset id; `harness.jar datasets` lists the ids"));
    }

    private static List<FigureSeries> seriesOf(String input) {
        List<Sweep> sweeps = isFile(input) ? Inputs.read(input) : List.of(dataset(input).sweep());
        List<FigureSeries> out = new ArrayList<>();
        for (Sweep s : sweeps) {
            out.add(labelled(input, s, FigureSeries.of(s), sweeps.size()));
        }
        return out;
    }

    /** Calibrates the input as {@code calibrate} would and draws the named models; says what it could not draw. */
    private List<FigureSeries> calibratedSeriesOf(String input) {
        HardwareFacts facts = HardwareFacts.bundled();
        List<CalibrationInput> ins = isFile(input)
                ? CalibrationInputs.files(List.of(Path.of(input)), new CalibrationInputs.Flags(gpus, nodes,
                        interconnect), facts)
                : List.of(CalibrationInputs.of(dataset(input)));
        SingleTierCalibrator calibrator = new SingleTierCalibrator(facts, new CalibrationOptions(null, null));
        List<FigureSeries> out = new ArrayList<>();
        for (CalibrationInput in : ins) {
            CalibrationEntry entry = calibrator.calibrate(in);
            if (entry instanceof DeferredCalibration d) {
                System.err.println(in.id() + ": no model drawn, " + d.reason());
            } else if (entry instanceof SingleTierCalibration s) {
                for (String m : models) {
                    if (s.fit(m).isEmpty()) {
                        System.err.println(in.id() + ": model " + m + " not drawn: "
                                + s.unavailable().getOrDefault(m, "not fitted"));
                    }
                }
            }
            out.add(labelled(input, in.sweep(), CalibratedSeries.of(in.sweep(), entry, models), ins.size()));
        }
        return out;
    }

    /** Several tables of one log differ by datatype and op; the legend must tell them apart. */
    private static FigureSeries labelled(String input, Sweep s, FigureSeries fs, int tables) {
        if (fs.points().isEmpty()) {
            throw new InputException(input, 0, "no row with a bus bandwidth to plot");
        }
        if (tables == 1) {
            return fs;
        }
        Measurement first = s.rows().get(0);
        return fs.withLabel(fs.label() + " · " + first.type() + " " + first.redop());
    }
}
