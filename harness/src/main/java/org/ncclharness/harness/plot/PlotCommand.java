package org.ncclharness.harness.plot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.io.OutputFile;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code plot INPUT... --out FILE.png|FILE.svg}: bus bandwidth against message size, one series per input. */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = {"Draw bus bandwidth (GB/s) against message size (log2 axis, 1K ... 8G) as PNG or SVG, "
                + "one series of markers per input. Each legend entry says where its numbers came from "
                + "(dataset, stored, replay, predicted).",
            "INPUT is a bundled dataset id (see `datasets`), an nccl-tests/rccl-tests log, a harness CSV or a "
                + "sweep JSON file; a log with several tables gives one series per table."})
public final class PlotCommand implements Callable<Integer> {

    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "dataset id or file; - for standard input")
    List<String> inputs;

    @Option(names = "--out", required = true, paramLabel = "FILE",
            description = "image to write; the format follows the name: .png or .svg")
    Path out;

    @Option(names = "--width", paramLabel = "PX", defaultValue = "1000", description = "width in pixels (default 1000)")
    int width;

    @Option(names = "--height", paramLabel = "PX", defaultValue = "600", description = "height in pixels (default 600)")
    int height;

    @Option(names = "--force", description = "overwrite FILE if it exists")
    boolean force;

    @Override
    public Integer call() {
        ChartFile.Format.of(out);
        ChartFile.checkSize(width, height);
        OutputFile.checkWritable(out, force);
        List<FigureSeries> series = new ArrayList<>();
        for (String input : inputs) {
            series.addAll(seriesOf(input));
        }
        ChartFile.write(Figure.of(series), out, width, height, force);
        System.out.println("wrote " + out + " (" + series.size() + " series"
                + ": " + String.join("; ", series.stream().map(FigureSeries::label).toList()) + ")");
        return ExitCode.OK;
    }

    /** A file when one exists by that name (or {@code -}), else a bundled dataset id. */
    static List<Sweep> sweepsOf(String input) {
        if (input.equals("-") || Files.exists(Path.of(input))) {
            return Inputs.read(input);
        }
        return DatasetCatalog.bundled().find(input).map(d -> List.of(d.sweep())).orElseThrow(() ->
                new InputException(input, 0, "neither a file nor a bundled dataset id; "
                        + "`harness.jar datasets` lists the ids"));
    }

    private static List<FigureSeries> seriesOf(String input) {
        List<Sweep> sweeps = sweepsOf(input);
        List<FigureSeries> out = new ArrayList<>();
        for (Sweep s : sweeps) {
            FigureSeries fs = FigureSeries.of(s);
            if (fs.points().isEmpty()) {
                throw new InputException(input, 0, "no row with a bus bandwidth to plot");
            }
            // Several tables of one log differ by datatype and op; the legend must tell them apart.
            out.add(sweeps.size() == 1 ? fs : fs.withLabel(fs.label() + " · " + tableOf(s)));
        }
        return out;
    }

    private static String tableOf(Sweep s) {
        Measurement first = s.rows().get(0);
        return first.type() + " " + first.redop();
    }
}
