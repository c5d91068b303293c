package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;

/** Every bundled dataset drawn headless as PNG and SVG, and read back. */
class BundledDatasetFiguresTest {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 480;

    @TempDir
    Path dir;

    static Stream<String> ids() {
        return DatasetCatalog.bundled().all().stream().map(Dataset::id);
    }

    @ParameterizedTest
    @MethodSource("ids")
    void rendersAsPngAndSvg(String id) throws Exception {
        FigureSeries series = FigureSeries.of(DatasetCatalog.bundled().get(id).sweep());
        Figure figure = Figure.of(List.of(series));
        Path png = dir.resolve(id + ".png");
        Path svg = dir.resolve(id + ".svg");
        ChartFile.write(figure, png, WIDTH, HEIGHT, false);
        ChartFile.write(figure, svg, WIDTH, HEIGHT, false);

        BufferedImage img = Images.readPng(png);
        assertThat(img.getWidth()).isEqualTo(WIDTH);
        assertThat(img.getHeight()).isEqualTo(HEIGHT);
        assertThat(Images.distinctColours(img, 16)).as("not one colour").isEqualTo(16);
        assertThat(Images.pixelsOf(img, new Color(0x1f77b4))).as("the measured markers")
                .isGreaterThanOrEqualTo(9 * series.points().size());
        List<String> texts = Images.texts(Images.parseSvg(svg));
        assertThat(BusBwChartTest.legendEntries(texts)).containsExactly(series.legendLabel());
        assertThat(series.legendLabel()).startsWith("dataset: " + id);
    }
}
