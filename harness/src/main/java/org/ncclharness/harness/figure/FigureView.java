package org.ncclharness.harness.figure;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.ncclharness.calibration.measure.InputException;

/**
 * How a figure shows a run. Bus bandwidth against size (log-x) shows what the links deliver at the large sizes; a
 * linear busbw axis puts everything below about 1 MiB at 0, so the time view (log-log, time per iteration against
 * size) is the latency view: a regression at the small sizes, the first thing a bring-up looks at after the
 * bandwidth, is visible there. A log busbw axis shows both at once, less plainly.
 */
public enum FigureView {
    /** Bus bandwidth, linear axis from 0. */
    BUSBW("busbw", "bus bandwidth"),
    /** Bus bandwidth on a log axis. */
    BUSBW_LOG("busbw-log", "bus bandwidth"),
    /** Time per iteration on a log axis (log-log with the size). */
    TIME("time", "time per iteration");

    /** The two views every run's page shows: what the links deliver and what a small message waits. */
    public static final List<FigureView> BOTH = List.of(BUSBW, TIME);

    private final String id;
    private final String quantity;

    FigureView(String id, String quantity) {
        this.id = id;
        this.quantity = quantity;
    }

    /** What the y axis shows, as a title names it. */
    public String quantity() {
        return quantity;
    }

    /** The name {@code --view} takes and the suffix a page's second image file gets. */
    public String id() {
        return id;
    }

    /** A {@code --view} value; bad input naming the known ones otherwise. */
    public static FigureView of(String id) {
        return Stream.of(values()).filter(v -> v.id.equals(id.trim().toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new InputException("--view", 0, "unknown view " + id + "; known: "
                        + String.join(", ", Stream.of(values()).map(FigureView::id).toList())));
    }
}
