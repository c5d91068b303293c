package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.LogTick;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.RectangleEdge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.SourceKind;

public class BusBwChartTest {
    private static final Color BLUE = new Color(0x1f77b4);
    private static final Color ORANGE = new Color(0xff7f0e);
    private static final Color GREEN = new Color(0x2ca02c);

    @TempDir
    Path dir;

    private static FigureSeries measuredWithTwoModels() {
        var sweep = TestSweeps.allReduce("h100_synthetic", SourceKind.DATASET, 16, 1024, 8L << 30,
                TestSweeps.alphaBeta(16, 40, 360));
        return FigureSeries.of(sweep)
                .withModels(List.of(new ModelCurve("single-tier α-β", TestSweeps.alphaBeta(16, 50, 340)),
                        new ModelCurve("two-tier", TestSweeps.alphaBeta(16, 30, 380))))
                .withLimit(new PhysicalLimit("NVLink4", 450));
    }

    @Test
    void drawsPointsEveryModelAndBetaPhysInTheirOwnColours() throws Exception {
        Figure f = Figure.of(List.of(measuredWithTwoModels())).withResiduals(true);
        Path png = dir.resolve("f.png");
        Path svg = dir.resolve("f.svg");
        ChartFile.write(f, png, 1000, 800, false);
        ChartFile.write(f, svg, 1000, 800, false);

        BufferedImage img = Images.readPng(png);
        assertThat(img.getWidth()).isEqualTo(1000);
        assertThat(img.getHeight()).isEqualTo(800);
        assertThat(Images.pixelsOf(img, BLUE)).as("measured markers").isGreaterThan(200);
        assertThat(Images.pixelsOf(img, ORANGE)).as("first model").isGreaterThan(200);
        assertThat(Images.pixelsOf(img, GREEN)).as("second model").isGreaterThan(200);
        List<String> texts = Images.texts(Images.parseSvg(svg));
        assertThat(texts).contains("dataset: h100_synthetic · N=16", "model single-tier α-β", "model two-tier",
                "β_phys NVLink4: 450 GB/s", "AllReduce bus bandwidth: H100 · N=16 · 2 hosts · NVLink4 + IB NDR",
                "synthetic dataset h100_synthetic");
        assertThat(legendEntries(texts)).hasSize(4);
    }

    @Test
    void everyLegendEntrySaysWhereItsLineCameFrom() throws Exception {
        var nvls = FigureSeries.of(TestSweeps.allReduce("h100_nvls", SourceKind.DATASET, 8, 1024, 8L << 30,
                        TestSweeps.alphaBeta(8, 20, 480)))
                .withModels(List.of(new ModelCurve("single-tier α-β", TestSweeps.alphaBeta(8, 25, 470)),
                        new ModelCurve("envelope", TestSweeps.alphaBeta(8, 18, 490))))
                .withLimit(new PhysicalLimit("NVLink4", 450)).withFlags(List.of("NVLS: busbw above β_phys"));
        var replay = FigureSeries.of(TestSweeps.allReduce("h100_ib", SourceKind.REPLAY, 16, 1024, 8L << 30,
                        TestSweeps.alphaBeta(16, 60, 45)))
                .withModels(List.of(new ModelCurve("two-tier", TestSweeps.alphaBeta(16, 55, 47))))
                .withLimit(new PhysicalLimit("IB NDR", 50));
        var again = FigureSeries.of(TestSweeps.allReduce("h100_ib_2", SourceKind.STORED, 16, 1024, 1L << 30,
                TestSweeps.alphaBeta(16, 61, 44))).withLimit(new PhysicalLimit("IB NDR", 50));
        Path svg = dir.resolve("legend.svg");
        ChartFile.write(Figure.of(List.of(nvls, replay, again)).withResiduals(true), svg, 1200, 800, false);

        assertThat(legendEntries(Images.texts(Images.parseSvg(svg)))).containsExactlyInAnyOrder(
                "dataset: h100_nvls · N=8 [NVLS: busbw above β_phys]",
                "replay: h100_ib · N=16",
                "stored: h100_ib_2 · N=16",
                "model single-tier α-β of dataset: h100_nvls · N=8",
                "model envelope of dataset: h100_nvls · N=8",
                "model two-tier of replay: h100_ib · N=16",
                "β_phys NVLink4: 450 GB/s",
                "β_phys IB NDR: 50 GB/s");
    }

    @Test
    void residualsArePercentTimeErrorAtEachMeasuredSize() {
        Figure f = Figure.of(List.of(measuredWithTwoModels())).withResiduals(true);
        var chart = BusBwChart.build(f, 1000);
        var combined = (org.jfree.chart.plot.CombinedDomainXYPlot) chart.getPlot();
        XYPlot residuals = combined.getSubplots().get(1);
        var data = residuals.getDataset();

        assertThat(data.getSeriesCount()).isEqualTo(2);
        assertThat(data.getItemCount(0)).isEqualTo(24);
        int last = data.getItemCount(0) - 1;
        double bytes = 8.0 * (1L << 30);
        assertThat(data.getXValue(0, last)).isEqualTo(bytes);
        double measured = 40 + 1.875 * bytes / 360e3;
        double predicted = 50 + 1.875 * bytes / 340e3;
        assertThat(data.getYValue(0, last)).isCloseTo(100 * (predicted - measured) / measured,
                org.assertj.core.data.Offset.offset(1e-9));
        // At 1K the α terms dominate: two-tier's error is near 30/40 − 1 = −25 %.
        assertThat(data.getYValue(1, 0)).isCloseTo(-25.0, org.assertj.core.data.Offset.offset(0.1));
    }

    @Test
    void modelCurvesAreBusBandwidthOfThePredictedTime() {
        FigureSeries s = measuredWithTwoModels();
        var chart = BusBwChart.build(Figure.of(List.of(s)), 1000);
        var curves = ((XYPlot) chart.getPlot()).getDataset(1);

        assertThat(curves.getSeriesCount()).isEqualTo(2);
        int n = curves.getItemCount(0);
        long bytes = (long) curves.getXValue(0, n - 1);
        double t = 50 + 2.0 * 15 / 16 * bytes / 340e3;
        assertThat(curves.getYValue(0, n - 1)).isCloseTo(bytes / (t * 1e3) * 2.0 * 15 / 16,
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(n).as("8 samples per octave over 23 octaves").isEqualTo(23 * 8 + 1);
    }

    @Test
    void sizeAxisIsLabelledInBinaryUnitsOnWholePowers() {
        var chart = BusBwChart.build(Figure.of(List.of(measuredWithTwoModels())), 1000);
        LogAxis axis = (LogAxis) ((XYPlot) chart.getPlot()).getDomainAxis();
        Graphics2D g2 = new BufferedImage(10, 10, BufferedImage.TYPE_INT_RGB).createGraphics();
        List<?> ticks = axis.refreshTicks(g2, new AxisState(), new Rectangle2D.Double(0, 0, 900, 500),
                RectangleEdge.BOTTOM);
        List<String> labels = ticks.stream().map(BusBwChartTest::labelOf).filter(l -> !l.isEmpty()).toList();

        assertThat(labels).startsWith("1K", "4K", "16K").contains("1M", "1G").endsWith("4G");
        assertThat(axis.getBase()).isEqualTo(2.0);
        assertThat(axis.getLowerBound()).isLessThan(1024).isGreaterThan(256);
        assertThat(axis.getUpperBound()).isGreaterThan(8.0 * (1L << 30));
    }

    @Test
    void ringAndTreeCrossoverIsMarkedWhereTheCurvesSwap() throws Exception {
        // Tree: small latency, half the bandwidth; Ring: 10× the latency, full bandwidth. Equal at 2·(α_r−α_t)·β.
        LongToDoubleFunction tree = b -> 10 + 2.0 * b / 25e3;
        LongToDoubleFunction ring = b -> 100 + 1.0 * b / 25e3;
        FigureSeries s = FigureSeries.predicted("8×H100, NVLink4", Collective.ALL_REDUCE, 8,
                List.of(new ModelCurve("Tree", tree), new ModelCurve("Ring", ring)));
        Figure f = Figure.of(List.of(s)).withRange(new SizeRange(1024, 1L << 30)).withCrossover(true);
        Path svg = dir.resolve("x.svg");
        ChartFile.write(f, svg, 1000, 600, false);

        long equal = 90 * 25_000L; // (100 − 10) µs × 25e3 B/µs = 2.25 MB
        var found = Crossover.find(f.series().get(0).models().get(0), f.series().get(0).models().get(1),
                BusBwChart.samples(f.sizeRange())).orElseThrow();
        assertThat(found.fasterBefore()).isEqualTo("Tree");
        assertThat(found.fasterAfter()).isEqualTo("Ring");
        // found between the samples that bracket it, to the byte
        assertThat(found.bytes()).isBetween(equal - 1, equal + 1);
        List<String> texts = Images.texts(Images.parseSvg(svg));
        assertThat(texts).anyMatch(t -> t.startsWith("Tree/Ring crossover at 2.") && t.endsWith("Ring faster from here"));
        assertThat(texts).contains("predicted: Tree", "predicted: Ring");
    }

    @Test
    void saysSoWhenTheCurvesNeverCross() throws Exception {
        FigureSeries s = FigureSeries.predicted("8×H100", Collective.ALL_REDUCE, 8,
                List.of(new ModelCurve("Ring", b -> 10 + b / 25e3), new ModelCurve("Tree", b -> 20 + b / 20e3)));
        Path svg = dir.resolve("n.svg");
        ChartFile.write(Figure.of(List.of(s)).withRange(new SizeRange(1024, 1L << 30)).withCrossover(true), svg,
                1000, 600, false);

        assertThat(Images.texts(Images.parseSvg(svg))).anyMatch(t -> t.contains("no Ring/Tree crossover in 1K … 1G")
                && t.endsWith("Ring faster throughout"));
    }

    @Test
    void sameFigureSameBytes() throws Exception {
        Figure f = Figure.of(List.of(measuredWithTwoModels())).withResiduals(true);
        for (String ext : List.of("png", "svg")) {
            ChartFile.write(f, dir.resolve("a." + ext), 800, 600, false);
            ChartFile.write(f, dir.resolve("b." + ext), 800, 600, false);
            assertThat(Files.readAllBytes(dir.resolve("a." + ext))).as(ext)
                    .isEqualTo(Files.readAllBytes(dir.resolve("b." + ext)));
        }
    }

    @Test
    void residualsWithoutAModelAreRefused() {
        var s = FigureSeries.of(TestSweeps.allReduce("x", SourceKind.STORED, 8, 1024, 1 << 20,
                TestSweeps.alphaBeta(8, 10, 100)));
        assertThatThrownBy(() -> Figure.of(List.of(s)).withResiduals(true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("model");
    }

    @Test
    void busBandwidthTicksAreRoundSteps() {
        assertThat(BusBwChart.niceStep(500 / 8.0)).isEqualTo(100);
        assertThat(BusBwChart.niceStep(45 / 8.0)).isEqualTo(10);
        assertThat(BusBwChart.niceStep(0.3)).isEqualTo(0.5);
        assertThat(BusBwChart.niceStep(20)).isEqualTo(20);
    }

    @Test
    void binarySizesReadLikeNcclTestsFlags() {
        assertThat(BinarySizeFormat.of(512)).isEqualTo("512");
        assertThat(BinarySizeFormat.of(1024)).isEqualTo("1K");
        assertThat(BinarySizeFormat.of(1536)).isEqualTo("1.5K");
        assertThat(BinarySizeFormat.of(64L << 20)).isEqualTo("64M");
        assertThat(BinarySizeFormat.of(8L << 30)).isEqualTo("8G");
        assertThat(BinarySizeFormat.of(2_250_000)).isEqualTo("2.15M");
    }

    /** LogAxis ticks carry an attributed label (minor ticks none); this is its plain text. */
    private static String labelOf(Object tick) {
        var label = ((LogTick) tick).getAttributedLabel();
        if (label == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        var it = label.getIterator();
        for (char c = it.first(); c != java.text.CharacterIterator.DONE; c = it.next()) {
            b.append(c);
        }
        return b.toString();
    }

    /** Legend entries are the texts that start like a series label, a model label or the β_phys line. */
    public static List<String> legendEntries(List<String> texts) {
        return texts.stream().filter(t -> t.matches("^(dataset|stored|replay|measured|predicted): .*"
                + "|^model .*|^β_phys .*")).toList();
    }
}
