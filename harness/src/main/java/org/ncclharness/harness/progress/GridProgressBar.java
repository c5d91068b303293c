package org.ncclharness.harness.progress;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.ncclharness.calibration.fit.twotier.GridProgress;

/**
 * A grid search's progress on stderr, drawn only once the search has run for {@link #DELAY_NANOS} (a search
 * that ends sooner prints nothing). Closed when the last combination is reported. Thread-safe: the grid's
 * workers report concurrently.
 */
public final class GridProgressBar implements GridProgress {

    static final long DELAY_NANOS = 1_000_000_000L;

    private final String task;
    private final PrintStream err;
    private final long created = System.nanoTime();
    private ProgressBar bar;
    private boolean closed;

    public GridProgressBar(String task, PrintStream err) {
        this.task = task;
        this.err = err;
    }

    @Override
    public synchronized void update(long done, long total) {
        if (closed) {
            return;
        }
        if (bar == null && System.nanoTime() - created >= DELAY_NANOS && done < total) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                    .setUnit(" M", 1_000_000).setConsumer(new ConsoleProgressBarConsumer(err)).build();
        }
        if (bar != null) {
            bar.stepTo(done);
        }
        if (done >= total) {
            closed = true;
            if (bar != null) {
                bar.close();
            }
        }
    }

    /** Whether a bar was drawn (the search outlasted the delay). */
    public synchronized boolean drawn() {
        return bar != null;
    }
}
