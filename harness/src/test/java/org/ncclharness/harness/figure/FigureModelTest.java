package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.BasicStroke;
import java.awt.Shape;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.data.xy.XYSeriesCollection;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.HealthCheck;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The figures' content read from the chart model (JFreeChart's axes, renderers, markers), not from pixels: the two
 * views, the shapes and dashes that tell series apart without colour, and the judgement a check's figure draws.
 */
class FigureModelTest {

    private static Sweep sweep(String id, double alphaUs, double betaGBps) {
        return TestSweeps.allReduce(id, SourceKind.DATASET, 16, 1024, 1L << 30,
                TestSweeps.alphaBeta(16, alphaUs, betaGBps));
    }

    private static XYPlot plot(Figure f) {
        return (XYPlot) BusBwChart.build(f, 960).getPlot();
    }

    @Test
    void theBusBwViewIsLinearTheTimeViewLogLogAndTitledSo() {
        Figure f = Figure.of(List.of(FigureSeries.of(sweep("a", 40, 360))));
        XYPlot busBw = plot(f);
        assertThat(busBw.getDomainAxis()).isInstanceOf(LogAxis.class);
        assertThat(busBw.getRangeAxis()).isInstanceOf(NumberAxis.class).isNotInstanceOf(LogAxis.class);
        assertThat(busBw.getRangeAxis().getLabel()).isEqualTo("bus bandwidth (GB/s)");

        JFreeChart time = BusBwChart.build(f.withView(FigureView.TIME), 960);
        XYPlot t = (XYPlot) time.getPlot();
        assertThat(t.getDomainAxis()).isInstanceOf(LogAxis.class);
        assertThat(t.getRangeAxis()).isInstanceOf(LogAxis.class);
        assertThat(t.getRangeAxis().getLabel()).startsWith("time per iteration (µs");
        assertThat(time.getTitle().getText()).startsWith("AllReduce time per iteration: H100");
        // the time view draws the measured times: the smallest size's point is its latency, not a busbw of ~0
        XYSeriesCollection points = (XYSeriesCollection) t.getDataset(0);
        assertThat(points.getSeries(0).getY(0).doubleValue()).isGreaterThan(40);

        XYPlot logBusBw = plot(f.withView(FigureView.BUSBW_LOG));
        assertThat(logBusBw.getRangeAxis()).isInstanceOf(LogAxis.class);
        assertThat(logBusBw.getRangeAxis().getLabel()).startsWith("bus bandwidth (GB/s");
    }

    @Test
    void seriesDifferByMarkerShapeAndSizeAndCurvesByDash() {
        FigureSeries a = FigureSeries.of(sweep("a", 40, 360)).withModels(List.of(
                new ModelCurve("one", TestSweeps.alphaBeta(16, 40, 360)),
                new ModelCurve("two", TestSweeps.alphaBeta(16, 50, 300))));
        FigureSeries b = FigureSeries.of(sweep("b", 40, 360));
        XYPlot p = plot(Figure.of(List.of(a, b)));
        XYLineAndShapeRenderer points = (XYLineAndShapeRenderer) p.getRenderer(0);
        Shape first = points.getSeriesShape(0);
        Shape second = points.getSeriesShape(1);
        assertThat(first.getClass()).isNotEqualTo(second.getClass());
        // the same points of both inputs: the second's marker is larger, so the first shows inside it
        assertThat(second.getBounds2D().getWidth()).isGreaterThan(first.getBounds2D().getWidth());
        XYLineAndShapeRenderer curves = (XYLineAndShapeRenderer) p.getRenderer(1);
        float[] dash0 = ((BasicStroke) curves.getSeriesStroke(0)).getDashArray();
        float[] dash1 = ((BasicStroke) curves.getSeriesStroke(1)).getDashArray();
        assertThat(dash0).isNull();
        assertThat(dash1).isNotNull();
    }

    @Test
    void theJudgementDrawsLineRateClassFloorNamedSizesAndTheReferenceDashed() {
        Sweep run = sweep("run", 40, 120);
        FigureSeries reference = FigureSeries.of(sweep("baseline", 30, 180)).withLabel("baseline b");
        CheckReport report = new CheckReport("run", run.provenance(), null, List.of(), List.of(
                new Finding(Severity.WARN, "dip", 16L << 20, "dip at 16 MiB"),
                new Finding(Severity.FAIL, "class-floor", 1L << 30, "below the floor"),
                new Finding(Severity.INFO, "peak", null, "busbw at the largest size")), Verdict.FAIL,
                new CheckReport.Levels(200.0, 42.9, "A100"));
        Figure f = Figure.of(List.of(FigureSeries.of(run))).withJudgement(Judgement.of(report, reference));

        XYPlot busBw = plot(f);
        assertThat(labels(busBw.getRangeMarkers(Layer.FOREGROUND)))
                .containsExactly("line rate 200 GB/s", "class floor 42.9 GB/s (A100)");
        assertThat(busBw.getRangeAxis().getUpperBound()).as("the line rate is inside the axis").isGreaterThan(200);
        assertThat(labels(busBw.getDomainMarkers(Layer.FOREGROUND))).containsExactly("dip at 16M", "class-floor at 1G");
        ValueMarker fail = (ValueMarker) busBw.getDomainMarkers(Layer.FOREGROUND).stream()
                .filter(m -> ((Marker) m).getLabel().startsWith("class-floor")).findFirst().orElseThrow();
        ValueMarker warn = (ValueMarker) busBw.getDomainMarkers(Layer.FOREGROUND).stream()
                .filter(m -> ((Marker) m).getLabel().startsWith("dip")).findFirst().orElseThrow();
        assertThat(fail.getPaint()).isNotEqualTo(warn.getPaint());
        // the reference: its own dataset, points joined by a dashed line
        int ref = datasetLabelled(busBw, "baseline b");
        XYLineAndShapeRenderer r = (XYLineAndShapeRenderer) busBw.getRenderer(ref);
        assertThat(r.getItemLineVisible(0, 0)).isTrue();
        assertThat(((BasicStroke) r.getSeriesStroke(0)).getDashArray()).isNotNull();

        // the time view: the levels become slopes named in the legend, the sizes stay marked
        XYPlot time = plot(f.withView(FigureView.TIME));
        assertThat(datasetLabelled(time, "line rate 200 GB/s")).isPositive();
        assertThat(datasetLabelled(time, "class floor 42.9 GB/s (A100)")).isPositive();
        assertThat(labels(time.getDomainMarkers(Layer.FOREGROUND))).contains("dip at 16M");
    }

    /** The check of a real run reports the line rate and class floor it judged by, as numbers the figure draws. */
    @Test
    void aRealCheckCarriesItsLevels() {
        Sweep run = DatasetCatalog.bundled().find("a100_allreduce_16gpu_2node_oci_roce").orElseThrow().sweep();
        CheckReport report = new HealthCheck(HardwareFacts.bundled(), CheckRules.defaults(), "--baseline")
                .check("oci", run, new HealthCheck.Against(null, null, new Nics(16, null)));
        assertThat(report.levels().lineRateGBps()).isEqualTo(200.0);
        // 25.1 % of 200 GB/s: the AllReduce / A100 family's floor in healthy-ranges.json (the 2-host RoCE class has
        // fewer than 3 runs)
        assertThat(report.levels().classFloorGBps()).isBetween(48.0, 52.0);
        Judgement j = Judgement.of(report, null);
        assertThat(j.levels()).extracting(Judgement.Level::label).first().isEqualTo("line rate 200 GB/s");
        assertThat(j.marks()).extracting(Judgement.SizeMark::bytes).contains(16L << 20, 64L << 20);
    }

    @Test
    void aPageShowsEveryRunInBothViews() {
        Figure f = Figure.of(List.of(FigureSeries.of(sweep("a", 40, 360))));
        List<ReportPage.ReportFigure> views = ReportPage.ReportFigure.views("run", "A run.", f);
        assertThat(views).extracting(ReportPage.ReportFigure::id).containsExactly("run", "run-time");
        assertThat(views).extracting(v -> ((Figure) v.figure()).view()).containsExactly(FigureView.BUSBW,
                FigureView.TIME);
    }

    /**
     * The calibration page's figure of the two-node RoCE run marks the sizes where the fitted algorithm envelope
     * changes algorithm or protocol, each at the size the model computes, labelled from → to, and says so below.
     */
    @Test
    void aCalibratedEnvelopesSwitchesAreMarkedWhereTheModelPutsThem() {
        var d = DatasetCatalog.bundled().get("a100_allreduce_16gpu_2node_oci_roce");
        var entry = new org.ncclharness.calibration.calibrate.TwoTierCalibrator(HardwareFacts.bundled())
                .calibrate(org.ncclharness.harness.runs.CalibrationInputs.of(d),
                        org.ncclharness.harness.runs.CalibrationInputs.bundled());
        FigureSeries series = CalibratedSeries.of(d.sweep(), entry, List.of());
        ModelCurve algorithms = series.models().stream().filter(m -> m.name().startsWith("algorithms"))
                .findFirst().orElseThrow();
        // Ring overtakes Tree within the run's sizes: the curve's own picks either side of each switch differ
        assertThat(algorithms.switches()).isNotEmpty().anySatisfy(w -> assertThat(w.from()).startsWith("Tree/"))
                .allSatisfy(w -> {
                    assertThat(w.from()).isNotEqualTo(w.to());
                    assertThat(w.bytes()).isBetween(64.0, 16.0 * (1L << 30));
                });

        XYPlot busBw = plot(Figure.of(List.of(series)));
        List<Double> at = new ArrayList<>();
        busBw.getDomainMarkers(Layer.FOREGROUND).forEach(m -> at.add(((ValueMarker) m).getValue()));
        List<String> expected = series.models().stream().flatMap(m -> m.switches().stream())
                .map(w -> w.from() + " → " + w.to()).toList();
        assertThat(labels(busBw.getDomainMarkers(Layer.FOREGROUND))).containsExactlyElementsOf(expected)
                .contains("Tree/LL → Ring/LL");
        assertThat(at).containsExactlyElementsOf(series.models().stream().flatMap(m -> m.switches().stream())
                .map(org.ncclharness.calibration.fit.envelope.AlgorithmChoices.Switch::bytes).toList());
        // the time view marks the same sizes
        assertThat(labels(plot(Figure.of(List.of(series)).withView(FigureView.TIME))
                .getDomainMarkers(Layer.FOREGROUND))).containsExactlyElementsOf(expected);
        assertThat(CalibrationReportPage.caption(series)).contains("; dotted verticals: where ")
                .contains(algorithms.name()).contains(" changes protocol or algorithm (labelled from → to)");
    }

    private static List<String> labels(Collection<?> markers) {
        List<String> out = new ArrayList<>();
        if (markers != null) {
            markers.forEach(m -> out.add(((Marker) m).getLabel()));
        }
        return out;
    }

    /** The index of the dataset with a series of this name, -1 where none has it. */
    private static int datasetLabelled(XYPlot p, String name) {
        for (int d = 0; d < p.getDatasetCount(); d++) {
            if (p.getDataset(d) instanceof XYSeriesCollection c) {
                for (int s = 0; s < c.getSeriesCount(); s++) {
                    if (Objects.equals(c.getSeries(s).getKey(), name)) {
                        return d;
                    }
                }
            }
        }
        return -1;
    }
}
