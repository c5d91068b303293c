package org.ncclharness.harness.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.format.RunFolders;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench speed}: every row of the speed targets' table (README), each command run whole in a fresh JVM (what a user waits for)
 * and set against {@code harness.jar --version} run in the same bench, interleaved with it, so that a busy or slow
 * machine moves both alike. CPU time is what the kernel charges this JVM for its children ({@link ChildRun}); peak
 * memory the child's own high-water mark.
 */
@Command(name = "speed", addMethodSubcommands = false,
        description = "The speed targets' table: calibrate (all, and each bundled ID), predict --interconnect, calibrate"
                + " --report and accuracy in fresh JVMs, as ratios to --version measured in the same run.")
public final class SpeedBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--repeat", paramLabel = "N", description = "runs of each command but accuracy, interleaved with"
            + " --version; the median is reported (default ${DEFAULT-VALUE})")
    int repeat = 3;

    @Option(names = "--each", paramLabel = "N", description = "runs of 'calibrate ID' for every bundled dataset, each"
            + " beside a --version run (default ${DEFAULT-VALUE}; 0 leaves the row out)")
    int each = 1;

    @Option(names = "--suite-seconds", paramLabel = "S", description = "the wall time of 'mvn -B verify' measured"
            + " elsewhere, for the suite's row (default: the row points to README's measured line)")
    Double suiteSeconds;

    static final double CALIBRATE_WALL = 3;
    static final double CALIBRATE_CPU = 4;
    static final double ONE_RUN = 1.3;
    static final double PREDICT = 1.5;
    static final double REPORT_OVER_CALIBRATE = 4;
    static final long REPORT_PEAK_MB = 600;
    static final double ACCURACY_S = 30;
    static final double SUITE_QUIET_S = 360;
    static final List<String> PREDICT_ARGS = List.of("predict", "--interconnect", "NVLink4", "--gpus", "8", "--bytes",
            "1G");

    @Override
    public Integer call() {
        if (repeat < 1 || each < 0) {
            throw new HarnessException(ExitCode.USAGE, "bench speed: --repeat must be at least 1 and --each at least 0");
        }
        ChildRun.Jar jar = ChildRun.Jar.own("speed", "speed");
        Path dir = null;
        try {
            dir = RunFolders.create("bench");
            List<SpeedRow> rows = table(jar, dir);
            System.out.println(SpeedRow.HEADER);
            rows.forEach(r -> System.out.println(r.markdown()));
        } catch (IOException e) {
            throw new HarnessException(ExitCode.ENVIRONMENT, "bench speed: " + e.getMessage(), e);
        } finally {
            if (dir != null) {
                RunFolders.remove(dir);
            }
        }
        return ExitCode.OK;
    }

    private List<SpeedRow> table(ChildRun.Jar jar, Path dir) throws IOException {
        List<ChildRun> version = new ArrayList<>();
        List<ChildRun> all = new ArrayList<>();
        List<ChildRun> predict = new ArrayList<>();
        List<ChildRun> report = new ArrayList<>();
        for (int i = 0; i < repeat; i++) { // interleaved: drift over the minutes this takes hits every command alike
            version.add(jar.run(dir, "--version"));
            all.add(jar.run(dir, "calibrate"));
            version.add(jar.run(dir, "--version"));
            predict.add(jar.run(dir, PREDICT_ARGS.toArray(String[]::new)));
            version.add(jar.run(dir, "--version"));
            report.add(jar.run(dir, "calibrate", "--report", dir.resolve("report-" + i).toString()));
        }
        ChildRun accuracy = jar.run(dir, "accuracy");
        version.add(jar.run(dir, "--version"));
        List<Dataset> ids = DatasetCatalog.bundled().all();
        double[][] idMs = new double[ids.size()][each];
        for (int r = 0; r < each; r++) {
            for (int d = 0; d < ids.size(); d++) {
                // a run that calibrates nothing alone exits 2 (ExitCode.USAGE): its answer is waited for all the same
                idMs[d][r] = jar.run(dir, List.of(ExitCode.OK, ExitCode.USAGE), "calibrate", ids.get(d).id()).wallMs();
                version.add(jar.run(dir, "--version"));
            }
        }
        double vWall = median(version.stream().mapToDouble(ChildRun::wallMs).toArray());
        double vCpu = median(version.stream().mapToDouble(ChildRun::cpuMs).toArray());
        double allWall = median(all.stream().mapToDouble(ChildRun::wallMs).toArray());
        double allCpu = median(all.stream().mapToDouble(ChildRun::cpuMs).toArray());
        double predictWall = median(predict.stream().mapToDouble(ChildRun::wallMs).toArray());
        double reportWall = median(report.stream().mapToDouble(ChildRun::wallMs).toArray());
        long reportPeakMb = report.stream().mapToLong(ChildRun::peakRssKb).max().orElse(0) / 1024;

        List<SpeedRow> rows = new ArrayList<>();
        rows.add(new SpeedRow("`--version` (the baseline)", String.format(Locale.ROOT, "%s wall, %s CPU; median of %d"
                + " runs among the others; %d CPUs", ms(vWall), ms(vCpu), version.size(),
                Runtime.getRuntime().availableProcessors()), "-", SpeedRow.Met.NONE));
        rows.add(new SpeedRow("`calibrate` (all " + ids.size() + " bundled runs)", String.format(Locale.ROOT,
                "%s = %.2f × wall; %s CPU = %.2f × CPU", ms(allWall), allWall / vWall, ms(allCpu), allCpu / vCpu),
                String.format(Locale.ROOT, "≤ %.0f × wall, ≤ %.0f × CPU", CALIBRATE_WALL, CALIBRATE_CPU),
                SpeedRow.Met.of(allWall / vWall <= CALIBRATE_WALL && allCpu / vCpu <= CALIBRATE_CPU)));
        if (each > 0) {
            rows.add(eachRow(ids, idMs, vWall));
        }
        rows.add(new SpeedRow("`" + String.join(" ", PREDICT_ARGS) + "`", String.format(Locale.ROOT, "%s = %.2f ×",
                ms(predictWall), predictWall / vWall), String.format(Locale.ROOT, "≤ %.1f ×", PREDICT),
                SpeedRow.Met.of(predictWall / vWall <= PREDICT)));
        rows.add(new SpeedRow("`calibrate --report DIR` (all)", String.format(Locale.ROOT, "%s = %.2f × the plain"
                + " `calibrate`; peak RSS %d MB", ms(reportWall), reportWall / allWall, reportPeakMb),
                String.format(Locale.ROOT, "≤ %.0f × the plain `calibrate`, ≤ %d MB", REPORT_OVER_CALIBRATE,
                        REPORT_PEAK_MB), SpeedRow.Met.of(reportWall / allWall <= REPORT_OVER_CALIBRATE
                        && reportPeakMb <= REPORT_PEAK_MB)));
        rows.add(new SpeedRow("`accuracy`", String.format(Locale.ROOT, "%s (one run) = %.1f ×",
                ms(accuracy.wallMs()), accuracy.wallMs() / vWall), String.format(Locale.ROOT, "≤ %.0f s", ACCURACY_S),
                SpeedRow.Met.of(accuracy.wallMs() <= ACCURACY_S * 1e3)));
        rows.add(suiteSeconds == null ? new SpeedRow("`mvn -B verify`", "not measured by this bench: README gives the"
                + " suite's time", "≤ 6 min quiet, ≤ 15 min under `stress --cpu 4`", SpeedRow.Met.NONE)
                : new SpeedRow("`mvn -B verify`", String.format(Locale.ROOT, "%.0f s (given by --suite-seconds)",
                suiteSeconds), "≤ 6 min quiet", SpeedRow.Met.of(suiteSeconds <= SUITE_QUIET_S)));
        return rows;
    }

    /** {@code calibrate ID}: each bundled run's median over the --version median, their median and the worst. */
    private SpeedRow eachRow(List<Dataset> ids, double[][] idMs, double vWall) {
        double[] ratio = new double[ids.size()];
        int worst = 0;
        int within = 0;
        for (int d = 0; d < ids.size(); d++) {
            ratio[d] = median(idMs[d]) / vWall;
            worst = ratio[d] > ratio[worst] ? d : worst;
            within += ratio[d] <= ONE_RUN ? 1 : 0;
        }
        return new SpeedRow("`calibrate ID` (each bundled run alone)", String.format(Locale.ROOT, "median %.2f ×,"
                + " worst %.2f × (%s); %d of %d within %.1f ×", median(ratio), ratio[worst], ids.get(worst).id(), within,
                ids.size(), ONE_RUN), String.format(Locale.ROOT, "≤ %.1f × for every run", ONE_RUN),
                SpeedRow.Met.of(within == ids.size()));
    }

    private static double median(double[] v) {
        return new Median().evaluate(Arrays.copyOf(v, v.length));
    }

    private static String ms(double ms) {
        return ms >= 1e4 ? String.format(Locale.ROOT, "%.1f s", ms / 1e3) : String.format(Locale.ROOT, "%.0f ms", ms);
    }
}
