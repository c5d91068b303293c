package org.ncclharness.devtools.twotier;

import org.ncclharness.harness.options.HelpOptions;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.fit.twotier.Fabric;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.fit.twotier.TwoTierProblem;
import org.ncclharness.calibration.fit.twotier.TwoTierRuns;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.GridRangeOptions;
import org.ncclharness.harness.progress.GridProgressBar;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code devtools.jar two-tier}: the faithful grid against the exact fitter (docs/two-tier.md, "Benchmark"). */
@Command(name = "two-tier",
        description = {
            "Fits one synthetic two-tier run (a model prediction with 0.5%% noise, not a measurement) with the "
                    + "reference grid search and with the exact fitter, on the same box, at R points per axis, and "
                    + "prints time, evaluations per second and best RMSPE of each, and the speed ratio.",
            "Grid evaluations are model evaluations (combinations x points); the fitter's are least-squares "
                    + "faces solved. A grid search that runs over a second draws a progress bar on stderr.",
            "The box is the data's default (ParamRanges.defaultsFor) unless --grid-* give ranges; each row's R"
                    + " replaces their POINTS."})
public final class TwoTierBenchCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--points", split = ",", defaultValue = "10,20,30", paramLabel = "R",
            description = "Points per axis, one benchmark row each (default: ${DEFAULT-VALUE}).")
    private int[] points;

    @Option(names = "--threads", paramLabel = "N",
            description = "Grid threads (default: all cores).")
    private Integer threads;

    @Option(names = "--form", defaultValue = "hierarchical", paramLabel = "FORM",
            description = "hierarchical or flat-ring (default: ${DEFAULT-VALUE}).")
    private String form;

    @Option(names = "--dataset", paramLabel = "ID",
            description = "fit a bundled multi-domain AllReduce dataset (measured) instead of the synthetic run")
    private String dataset;

    @Mixin
    private GridRangeOptions ranges;

    @Spec
    private CommandSpec spec;

    /** A bundled dataset as the two-tier problem {@code calibrate} fits, β_NV and hops from the hardware facts. */
    private TwoTierProblem measured(String id) {
        Dataset d = DatasetCatalog.bundled().find(id).orElseThrow(() -> new CommandLine.ParameterException(
                spec.commandLine(), "--dataset: no bundled dataset " + id + " (list them: harness.jar datasets)"));
        String intra = d.metadata().intra();
        Fabric fabric = new TwoTierCalibrator(HardwareFacts.bundled()).fabric(intra).orElseThrow(() ->
                new CommandLine.ParameterException(spec.commandLine(), "--dataset: " + id + " names no intra-domain"
                        + " fabric with a physical bandwidth (" + intra + ")"));
        return TwoTierProblem.of(TwoTierRuns.of(d.sweep(), id).run(), fabric.betaNvGBps(), fabric.hops());
    }

    @Override
    public Integer call() {
        TwoTierForm f = TwoTierForm.byId(form).orElseThrow(() -> new CommandLine.ParameterException(
                spec.commandLine(), "--form: expected hierarchical or flat-ring, got '" + form + "'"));
        for (int r : points) {
            if (r < 2) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--points: " + r + " points per axis; give at least 2");
            }
        }
        int n = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (n < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads: " + n + "; give at least 1");
        }
        PrintStream err = System.err;
        TwoTierProblem p = dataset == null ? TwoTierBench.syntheticProblem(f) : measured(dataset);
        List<TwoTierBench.Row> rows = TwoTierBench.run(p, f, points, n, ranges.ranges(),
                r -> new GridProgressBar("grid R=" + r, err));
        PrintWriter out = spec.commandLine().getOut();
        out.print(dataset == null ? TwoTierBench.format(p, f, n, rows) : TwoTierBench.format(f, n, rows,
                String.format(Locale.ROOT, "dataset %s (measured), %s, %d points, %s beta_NV %.0f GB/s, hops %d",
                        dataset, p.configurations().get(0).label(), p.points(),
                        DatasetCatalog.bundled().get(dataset).metadata().intra(), p.betaNvGBps(), p.hops())));
        out.flush();
        return ExitCode.OK;
    }
}
