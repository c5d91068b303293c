package org.ncclharness.harness.live;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a live sweep on stderr (size n of m, elapsed, estimate), only when the user is watching a
 * terminal: a log file or a pipe gets none, so stdout stays the nccl-tests table and stderr stays readable.
 */
final class SweepProgress implements AutoCloseable {

    private final ProgressBar bar;
    private final int total;
    private int done;

    private SweepProgress(ProgressBar bar, int total) {
        this.bar = bar;
        this.total = total;
    }

    /** A bar when a terminal is attached ({@link System#console()}), else a silent counter. */
    static SweepProgress start(int totalSizes) {
        if (System.console() == null) {
            return new SweepProgress(null, totalSizes);
        }
        ProgressBar bar = new ProgressBarBuilder().setTaskName("sweep").setInitialMax(totalSizes)
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(System.err))
                .setUpdateIntervalMillis(500).build();
        return new SweepProgress(bar, totalSizes);
    }

    /** {@code sizes} more sizes finished. */
    void advance(int sizes, String what) {
        done += sizes;
        if (bar != null) {
            bar.stepTo(done);
            bar.setExtraMessage("size " + done + " of " + total + " " + what);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
