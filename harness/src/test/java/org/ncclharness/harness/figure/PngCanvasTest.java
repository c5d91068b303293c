package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.junit.jupiter.api.Test;

class PngCanvasTest {

    private static final int WIDTH_PX = ReportPage.FIGURE_WIDTH_PX;
    private static final int HEIGHT_PX = ReportPage.FIGURE_HEIGHT_PX;

    /** The two figures of {@link ReportPages#twoDatasets}, drawn with no background: what is under them shows. */
    private static List<JFreeChart> seeThroughCharts() {
        return ReportPages.twoDatasets().figures().stream().map(f -> {
            JFreeChart chart = ((Figure) f.figure()).withResiduals(false).chart(WIDTH_PX);
            chart.setBackgroundPaint(null);
            chart.getPlot().setBackgroundPaint(null);
            return chart;
        }).toList();
    }

    private static byte[] fresh(JFreeChart chart) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChartFile.writeTo(chart, ChartFile.Format.PNG, WIDTH_PX, HEIGHT_PX, out);
        return out.toByteArray();
    }

    private static byte[] on(PngCanvas canvas, JFreeChart chart) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        canvas.write(chart, WIDTH_PX, HEIGHT_PX, out);
        return out.toByteArray();
    }

    @Test
    void aChartDrawnWhereAnotherWasHasTheBytesOfOneDrawnOnANewImage() throws IOException {
        List<JFreeChart> charts = seeThroughCharts();
        PngCanvas canvas = new PngCanvas();

        byte[] first = on(canvas, charts.get(0));
        byte[] second = on(canvas, charts.get(1));
        byte[] firstAgain = on(canvas, charts.get(0));

        assertThat(Arrays.equals(second, first)).as("two charts, two pictures").isFalse();
        assertThat(Arrays.equals(second, fresh(charts.get(1)))).as("the second chart, on the first's canvas")
                .isTrue();
        assertThat(Arrays.equals(firstAgain, fresh(charts.get(0)))).as("the first chart, on the second's canvas")
                .isTrue();
    }

    @Test
    void aClearedImageIsTransparentBlackAsANewOneIs() {
        RowSharingImage image = new RowSharingImage(4, 3);
        image.setRGB(1, 2, 0xff336699);

        image.clear();

        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < 4; x++) {
                assertThat(image.getRGB(x, y)).isZero();
            }
        }
    }
}
