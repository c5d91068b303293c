package org.ncclharness.harness.calibrate;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.ncclharness.calibration.fit.FitProgress;

/**
 * {@code calibrate}'s progress on stderr, in leave-one-out refits (where a large input spends its time), drawn
 * only on a terminal and only once the calibration has run for {@link #DELAY_NANOS}: a log file, a pipe or a
 * quick calibration gets nothing, and stdout stays the report. The end grows as each input's calibrator
 * announces its refits (inputs run in parallel). Thread-safe.
 */
final class CalibrationProgressBar implements FitProgress, AutoCloseable {

    static final long DELAY_NANOS = 1_000_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private final long delayNanos;
    private final long created = System.nanoTime();
    private ProgressBar bar;
    private long total;
    private long done;

    CalibrationProgressBar(PrintStream err, boolean terminal, long delayNanos) {
        this.err = err;
        this.terminal = terminal;
        this.delayNanos = delayNanos;
    }

    /** A bar on stderr when a terminal is attached ({@link System#console()}). */
    static CalibrationProgressBar onStderr() {
        return new CalibrationProgressBar(System.err, System.console() != null, DELAY_NANOS);
    }

    @Override
    public synchronized void started(int refits) {
        total += refits;
        if (bar != null) {
            bar.maxHint(total);
        }
    }

    @Override
    public synchronized void refitted() {
        done++;
        if (bar == null && terminal && System.nanoTime() - created >= delayNanos && done < total) {
            bar = new ProgressBarBuilder().setTaskName("calibrate: leave-one-out refits").setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(err))
                    .setUpdateIntervalMillis(500).build();
        }
        if (bar != null) {
            bar.stepTo(done);
        }
    }

    /** Whether a bar was drawn. */
    synchronized boolean drawn() {
        return bar != null;
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.stepTo(total);
            bar.close();
        }
    }
}
