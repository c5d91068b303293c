package org.ncclharness.harness.figure;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws a {@link Judgement} into a figure's main panel: the reference dashed (its points joined, its model's curve),
 * each level a labelled horizontal line (in the time view, the time that busbw takes per size), and each size a
 * finding names a vertical line labelled with its rules, red where one FAILs the run.
 */
final class JudgementLayer {

    private static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Color FAIL = new Color(0xb2182b);
    private static final Color WARN = new Color(0xe08214);
    /** Levels: black and dash-dotted, apart from β_phys (dashed in its input's colour) and the reference (grey). */
    private static final float[][] LEVEL_DASHES = {{12f, 3f, 2f, 3f}, {4f, 4f}};
    private static final Color LEVEL = Color.BLACK;
    /** Size marks' labels climb by a line each, so two near sizes do not write over each other. */
    private static final int MARK_LABEL_STEP_PX = 15;

    private JudgementLayer() {
    }

    /** Adds the judgement as datasets {@code first}, {@code first + 1} and markers; nothing for {@link Judgement#NONE}. */
    static void draw(Figure figure, long[] samples, XYPlot plot, int first) {
        Judgement j = figure.judgement();
        if (j.isEmpty()) {
            return;
        }
        FigureView view = figure.view();
        FigureSeries run = figure.series().get(0);
        if (j.reference() != null) {
            reference(view, j.reference(), samples, plot, first);
        }
        XYSeriesCollection levels = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        renderer.setDrawSeriesLineAsPath(true);
        for (int i = 0; i < j.levels().size(); i++) {
            Judgement.Level l = j.levels().get(i);
            java.awt.Stroke dash = SeriesStyle.stroke(1.5f, LEVEL_DASHES[i % LEVEL_DASHES.length]);
            if (view == FigureView.TIME) {
                // a sloped line: its name goes in the legend
                int k = levels.getSeriesCount();
                levels.addSeries(BusBwChart.level(view, run, l.label(), l.busBwGBps(), samples));
                renderer.setSeriesPaint(k, LEVEL);
                renderer.setSeriesStroke(k, dash);
            } else {
                ValueMarker line = new ValueMarker(l.busBwGBps(), LEVEL, dash);
                label(line, l.label(), RectangleAnchor.TOP_LEFT, TextAnchor.BOTTOM_LEFT);
                plot.addRangeMarker(line, Layer.FOREGROUND);
            }
        }
        plot.setDataset(first + 1, levels);
        plot.setRenderer(first + 1, renderer);
        double middle = Math.sqrt((double) samples[0] * samples[samples.length - 1]);
        int n = 0;
        for (Map.Entry<Long, List<Judgement.SizeMark>> at : bySize(j.marks()).entrySet()) {
            boolean fail = at.getValue().stream().anyMatch(Judgement.SizeMark::fail);
            List<String> rules = at.getValue().stream().map(Judgement.SizeMark::rule).distinct().toList();
            ValueMarker line = new ValueMarker(at.getKey(), fail ? FAIL : WARN, new BasicStroke(1.5f));
            // labels of the right half read leftwards, so none runs off the plot; each a line above the last
            boolean right = at.getKey() > middle;
            label(line, String.join(", ", rules) + " at " + BinarySizeFormat.of(at.getKey()),
                    right ? RectangleAnchor.BOTTOM_LEFT : RectangleAnchor.BOTTOM_RIGHT,
                    right ? TextAnchor.BOTTOM_RIGHT : TextAnchor.BOTTOM_LEFT);
            line.setLabelOffset(new RectangleInsets(2, 4, 4 + MARK_LABEL_STEP_PX * n++, 4));
            plot.addDomainMarker(line, Layer.FOREGROUND);
        }
    }

    /** The reference's points joined by a dashed grey line, hollow; its model curves dashed grey too. */
    private static void reference(FigureView view, FigureSeries ref, long[] samples, XYPlot plot, int index) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setDrawSeriesLineAsPath(true);
        if (!ref.points().isEmpty()) {
            XYSeries xy = new XYSeries(ref.legendLabel(), false, true);
            for (SizePoint p : ref.points()) {
                if (p.bytes() > 0) {
                    BusBwChart.add(view, xy, p.bytes(), view == FigureView.TIME ? p.timeUs() == null
                            ? timeOf(ref, p) : p.timeUs() : p.busBwGBps());
                }
            }
            data.addSeries(xy);
        }
        for (ModelCurve m : ref.models()) {
            XYSeries xy = new XYSeries(ref.label() + (ref.points().isEmpty() ? "" : ": " + m.name()), false, true);
            for (long bytes : samples) {
                BusBwChart.add(view, xy, bytes, view == FigureView.TIME ? m.timeUs().applyAsDouble(bytes)
                        : ref.modelBusBwGBps(m, bytes));
            }
            data.addSeries(xy);
        }
        for (int k = 0; k < data.getSeriesCount(); k++) {
            renderer.setSeriesPaint(k, SeriesStyle.REFERENCE);
            renderer.setSeriesStroke(k, SeriesStyle.stroke(1.8f, SeriesStyle.REFERENCE_DASH));
            renderer.setSeriesShape(k, SeriesStyle.marker(0));
            renderer.setSeriesShapesFilled(k, false);
            renderer.setSeriesShapesVisible(k, k == 0 && !ref.points().isEmpty());
        }
        plot.setDataset(index, data);
        plot.setRenderer(index, renderer);
    }

    private static double timeOf(FigureSeries s, SizePoint p) {
        return s.ranks() == null ? Double.NaN : s.collective().timeUs(p.bytes(), p.busBwGBps(), s.ranks());
    }

    private static Map<Long, List<Judgement.SizeMark>> bySize(List<Judgement.SizeMark> marks) {
        Map<Long, List<Judgement.SizeMark>> out = new LinkedHashMap<>();
        for (Judgement.SizeMark m : marks) {
            out.computeIfAbsent(m.bytes(), k -> new ArrayList<>()).add(m);
        }
        return out;
    }

    private static void label(ValueMarker line, String text, RectangleAnchor anchor, TextAnchor textAnchor) {
        MarkerLabel.on(line, text, LABEL_FONT, anchor, textAnchor, new RectangleInsets(2, 4, 2, 4));
        line.setLabelPaint(line.getPaint());
    }
}
