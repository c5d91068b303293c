package org.ncclharness.harness.bench;

import org.ncclharness.harness.HelpOptions;
import picocli.CommandLine.Mixin;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.report.CalibrationEntry;
import org.ncclharness.calibration.report.CalibrationInput;
import org.ncclharness.calibration.report.CalibrationOptions;
import org.ncclharness.calibration.report.CalibrationReport;
import org.ncclharness.calibration.report.SingleTierCalibration;
import org.ncclharness.harness.ExitCode;
import org.ncclharness.harness.calibrate.CalibrateCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench calibrate}: times what {@code calibrate} does on every bundled dataset — loading the catalog and the
 * hardware facts, then every fit with its leave-one-out refits — once cold (the first run in a fresh JVM, what a
 * user waits for) and then warm, and prints the figures for the README.
 */
@Command(name = "calibrate",
        description = "Time 'calibrate' on all bundled datasets: cold (first run in this JVM) and warm (median).")
public final class CalibrateBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--repeat", paramLabel = "N", description = "warm repetitions (default ${DEFAULT-VALUE})")
    int repeat = 20;

    @Override
    public Integer call() {
        long jvmStartMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        long t0 = System.nanoTime();
        List<CalibrationInput> inputs = CalibrateCommand.bundledInputs();
        HardwareFacts facts = HardwareFacts.bundled();
        long t1 = System.nanoTime();
        CalibrationReport first = CalibrateCommand.run(facts, inputs, CalibrationOptions.defaults());
        long t2 = System.nanoTime();
        long sinceJvmStartMs = System.currentTimeMillis() - jvmStartMs;
        double[] warm = new double[Math.max(1, repeat)];
        for (int i = 0; i < warm.length; i++) {
            long s = System.nanoTime();
            CalibrateCommand.run(facts, inputs, CalibrationOptions.defaults());
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
        return ExitCode.OK;
    }
}
