package org.ncclharness.harness.figure;

import org.jfree.chart.JFreeChart;

/** What a report page or a PNG file can show: a busbw figure, or the pair heatmap of a bring-up. */
public sealed interface Picture permits Figure, HostHeatmap {

    /** The picture's title, also its image's alt text. */
    String title();

    /** Its height on the page, in pixels, at {@link ReportPage#FIGURE_WIDTH_PX}. */
    int heightPx();

    /** The chart, drawn for an image {@code widthPx} wide. */
    JFreeChart chart(int widthPx);
}
