package org.ncclharness.harness.bench;

import org.ncclharness.calibration.calibrate.CalibrationPipeline;
import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.calibrate.CalibrationEntry;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.SingleTierCalibration;
import org.ncclharness.calibration.format.RunFolders;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.runs.CalibrationInputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench calibrate}: times what {@code calibrate} does on every bundled dataset — loading the catalog and the
 * hardware facts, then every fit with its leave-one-out refits — once cold (the first run in a fresh JVM, what a
 * user waits for) and then warm, and prints the figures for the README.
 */
@Command(name = "calibrate", addMethodSubcommands = false,
        description = "Time 'calibrate' on all bundled datasets: cold (first run in this JVM) and warm (median).")
public final class CalibrateBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--repeat", paramLabel = "N", description = "warm repetitions (default ${DEFAULT-VALUE})")
    int repeat = 20;

    @Option(names = "--cold", paramLabel = "N", description = "cold runs of each command in fresh JVMs, against"
            + " 'harness.jar --version' in the same run (default ${DEFAULT-VALUE}; 0 skips them)")
    int cold = 8;

    @Option(names = "--cold-each", paramLabel = "N", description = "cold runs of 'calibrate ID' for each bundled"
            + " dataset alone, each beside a run of --version (default ${DEFAULT-VALUE}; 0 skips them)")
    int coldEach = 3;

    /** The size count of the synthetic {@code -i} style log whose calibration is timed cold. */
    static final int DENSE_SIZES = 10_000;
    /** The absolute targets: 10,000 sizes in under 10 s, 100,000 in under 60 s, on 2 cores. */
    static final int HUGE_SIZES = 100_000;
    private static final double DENSE_TARGET_MS = 10_000;
    private static final double HUGE_TARGET_MS = 60_000;
    /** The target for a cold command against the JVM's own start-up. */
    private static final double RATIO_TARGET = 2;

    @Override
    public Integer call() {
        long jvmStartMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        long t0 = System.nanoTime();
        List<CalibrationInput> inputs = CalibrationInputs.bundled();
        HardwareFacts facts = HardwareFacts.bundled();
        long t1 = System.nanoTime();
        CalibrationReport first = CalibrationPipeline.calibrate(facts, inputs, CalibrationOptions.defaults());
        long t2 = System.nanoTime();
        long sinceJvmStartMs = System.currentTimeMillis() - jvmStartMs;
        double[] warm = new double[Math.max(1, repeat)];
        for (int i = 0; i < warm.length; i++) {
            long s = System.nanoTime();
            CalibrationPipeline.calibrate(facts, inputs, CalibrationOptions.defaults());
            warm[i] = (System.nanoTime() - s) / 1e6;
        }
        Arrays.sort(warm);
        int single = 0;
        int fits = 0;
        for (CalibrationEntry e : first.entries()) {
            if (e instanceof SingleTierCalibration s) {
                single++;
                fits += s.fits().size();
            }
        }
        System.out.printf(Locale.ROOT, "bench calibrate: %d bundled datasets, %d single-tier calibrations, %d model"
                + " fits (each with its leave-one-out refits), %d CPUs available%n", inputs.size(), single, fits,
                Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "  cold: load datasets + hardware facts %.0f ms, calibrate %.0f ms;"
                + " JVM start to end of first calibrate %d ms%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6, sinceJvmStartMs);
        System.out.printf(Locale.ROOT, "  warm: calibrate median %.1f ms, min %.1f ms, max %.1f ms over %d runs%n",
                warm[warm.length / 2], warm[0], warm[warm.length - 1], warm.length);
        System.out.flush();
        if (cold > 0) {
            coldRatios();
        }
        return ExitCode.OK;
    }

    /**
     * What a user waits for: whole commands in fresh JVMs, each as a ratio to the JVM's own start-up
     * ({@code --version}) measured in the same run, so a busy or slow machine moves both alike.
     */
    private void coldRatios() {
        // the cold runs start the harness.jar this runs from again
        Path jar = ChildRun.Jar.own("calibrate --cold", "calibrate, or pass --cold 0").path();
        Path dir = null;
        try {
            dir = RunFolders.create("bench");
            Dataset from = DenseLog.source(DatasetCatalog.bundled().all());
            Path dense = dir.resolve("dense-" + DENSE_SIZES + ".txt");
            DenseLog.write(from, DENSE_SIZES, dense);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<List<String>> commands = List.of(List.of(java, "-jar", jar.toString(), "--version"),
                    List.of(java, "-jar", jar.toString(), "calibrate"),
                    calibrateLog(java, jar, from, dense));
            double[][] ms = new double[commands.size()][cold];
            for (int i = 0; i < cold; i++) {
                for (int c = 0; c < commands.size(); c++) { // interleaved: drift hits every command alike
                    ms[c][i] = wallMs(commands.get(c), dir);
                }
            }
            double version = new Median().evaluate(ms[0]);
            double catalog = new Median().evaluate(ms[1]);
            double dense10k = new Median().evaluate(ms[2]);
            System.out.printf(Locale.ROOT, "  cold, median of %d fresh JVMs each: --version %.0f ms%n", cold, version);
            System.out.printf(Locale.ROOT, "    calibrate (every bundled dataset) %.0f ms = %.2f x --version%n",
                    catalog, catalog / version);
            System.out.printf(Locale.ROOT, "    calibrate %d-size log (synthetic, interpolated from %s) %.0f ms ="
                    + " %.2f x --version (target under %.0f s)%n", DENSE_SIZES, from.metadata().id(), dense10k,
                    dense10k / version, DENSE_TARGET_MS / 1e3);
            // one run: at this size the start-up is noise, and 8 would add minutes to the bench
            Path huge = dir.resolve("dense-" + HUGE_SIZES + ".txt");
            DenseLog.write(from, HUGE_SIZES, huge);
            double hugeMs = wallMs(calibrateLog(java, jar, from, huge), dir);
            System.out.printf(Locale.ROOT, "    calibrate %d-size log (made the same way), one run: %.0f ms (target"
                    + " under %.0f s)%n", HUGE_SIZES, hugeMs, HUGE_TARGET_MS / 1e3);
            if (coldEach > 0) {
                eachDataset(java, jar, dir);
            }
        } catch (IOException e) {
            throw new HarnessException(ExitCode.ENVIRONMENT, "bench calibrate --cold: " + e.getMessage(), e);
        } finally {
            if (dir != null) {
                RunFolders.remove(dir);
            }
        }
    }

    /**
     * {@code calibrate ID} for every bundled dataset alone, what a user with one run waits for: per dataset the
     * median of {@link #coldEach} fresh JVMs over the median of the {@code --version} runs made beside them (one
     * after each), so drift over the minutes this takes moves both alike.
     */
    private void eachDataset(String java, Path jar, Path dir) throws IOException {
        List<String> ids = DatasetCatalog.bundled().all().stream().map(Dataset::id).toList();
        List<String> version = List.of(java, "-jar", jar.toString(), "--version");
        double[][] ms = new double[ids.size()][coldEach];
        double[] versionMs = new double[ids.size() * coldEach];
        java.util.Set<String> nothing = new java.util.TreeSet<>();
        for (int r = 0; r < coldEach; r++) {
            for (int d = 0; d < ids.size(); d++) {
                // a dataset that calibrates nothing alone (three sizes, no times) exits 2 (ExitCode.USAGE): its
                // answer took as long to get as any other's, so it is timed all the same
                List<String> command = List.of(java, "-jar", jar.toString(), "calibrate", ids.get(d));
                long s = System.nanoTime();
                int rc = run(command, dir);
                ms[d][r] = (System.nanoTime() - s) / 1e6;
                if (rc == ExitCode.USAGE) {
                    nothing.add(ids.get(d));
                } else if (rc != ExitCode.OK) {
                    throw new IOException(String.join(" ", command) + " exited " + rc);
                }
                versionMs[r * ids.size() + d] = wallMs(version, dir);
            }
        }
        double v = new Median().evaluate(versionMs);
        double[] ratio = new double[ids.size()];
        int worst = 0;
        int within = 0;
        for (int d = 0; d < ids.size(); d++) {
            ratio[d] = new Median().evaluate(ms[d]) / v;
            worst = ratio[d] > ratio[worst] ? d : worst;
            within += ratio[d] <= RATIO_TARGET ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "    calibrate ID, each bundled dataset alone (median of %d fresh JVMs each;"
                + " --version beside them %.0f ms): median %.2f x --version, %d of %d within %.0f x, the longest %.2f x"
                + " (%s)%n", coldEach, v, new Median().evaluate(ratio), within, ids.size(), RATIO_TARGET, ratio[worst],
                ids.get(worst));
        if (!nothing.isEmpty()) {
            System.out.printf(Locale.ROOT, "      %d of them calibrate nothing alone (exit 2: too few sizes or no"
                    + " times), timed all the same%n", nothing.size());
        }
    }

    /** {@code calibrate LOG} with what a log made from {@code from} does not say (its GPU count and fabric). */
    private static List<String> calibrateLog(String java, Path jar, Dataset from, Path log) {
        return List.of(java, "-jar", jar.toString(), "calibrate", log.toString(), "--gpus",
                from.metadata().gpus().toString(), "--interconnect", from.metadata().intra());
    }

    /** The synthetic logs are inputs of this bench only: none is left in the temporary directory. */
    private static double wallMs(List<String> command, Path dir) throws IOException {
        long s = System.nanoTime();
        int rc = run(command, dir);
        if (rc != 0) {
            throw new IOException(String.join(" ", command) + " exited " + rc);
        }
        return (System.nanoTime() - s) / 1e6;
    }

    /** Runs a command to its end, its output discarded; its exit code. */
    private static int run(List<String> command, Path dir) throws IOException {
        Process p = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
