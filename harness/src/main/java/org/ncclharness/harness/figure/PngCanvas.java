package org.ncclharness.harness.figure;

import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;

/**
 * The pixels a page's PNG files are drawn on: one image per size, cleared and drawn again for each file, rather than
 * a new one per file. Each image is some 2–3 MB, a humongous object to the collector, which frees it only at its next
 * pause: a {@code calibrate --report} of the bundled catalog (192 figures) had 40 such regions, 160 MB, waiting at
 * each pause, on top of the heap the fits use. Cleared to transparent black, an image holds what a new one holds,
 * so each file has the same bytes. A page writes its files one after another; a canvas is not for two threads.
 */
final class PngCanvas {

    private final Map<List<Integer>, RowSharingImage> bySize = new HashMap<>();

    /** The chart as a PNG of this size into {@code out}. */
    void write(JFreeChart chart, int widthPx, int heightPx, OutputStream out) throws IOException {
        RowSharingImage image = bySize.computeIfAbsent(List.of(widthPx, heightPx),
                size -> new RowSharingImage(widthPx, heightPx));
        image.clear();
        ChartFile.writePng(chart, image, out);
    }
}
