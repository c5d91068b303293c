package org.ncclharness.harness.figure;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.ValueMarker;
import org.ncclharness.calibration.fit.envelope.AlgorithmChoices;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws a {@link Figure} with JFreeChart: bus bandwidth against message size on a log₂ axis, measured points as
 * markers, model curves as lines, β_phys dashed, an optional residual panel and crossover marks. It decides
 * only how things look; what is shown comes entirely from the figure.
 */
public final class BusBwChart {
    /** Model curves are sampled this densely so a protocol switch or a tier change shows as a bend, not a gap. */
    private static final int SAMPLES_PER_OCTAVE = 8;
    /** Roughly the width one size label needs; decides how many octaves one labelled tick spans. */
    private static final int PX_PER_SIZE_LABEL = 40;
    /** Octaves per labelled tick, coarsest last: each keeps 1K, 1M and 1G on a tick. */
    private static final int[] OCTAVES_PER_TICK = {1, 2, 5, 10};
    private static final Stroke LIMIT_STROKE = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
            10f, new float[] {7f, 5f}, 0f);
    private static final Stroke SWITCH_STROKE = new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
            10f, new float[] {2f, 3f}, 0f);
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    private static final Font SUBTITLE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font TICK_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Color GRID = new Color(0xdddddd);

    private BusBwChart() {
    }

    static JFreeChart build(Figure figure, int widthPx) {
        Headless.ensure();
        SizeRange range = figure.sizeRange();
        long[] samples = samples(range);
        LogAxis sizeAxis = sizeAxis(range, widthPx);
        XYPlot busBw = mainPlot(figure, samples);
        List<String> notes = new ArrayList<>();
        markSwitches(figure, busBw);
        if (figure.crossover()) {
            markCrossovers(figure, samples, busBw, notes);
        }
        Plot plot;
        if (figure.residuals()) {
            CombinedDomainXYPlot combined = new CombinedDomainXYPlot(sizeAxis);
            combined.setGap(12);
            combined.add(busBw, 3);
            combined.add(residualPlot(figure), 1);
            plot = combined;
        } else {
            busBw.setDomainAxis(sizeAxis);
            plot = busBw;
        }
        JFreeChart chart = new JFreeChart(figure.title(), TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(4, 8, 4, 12));
        if (!figure.subtitle().isEmpty()) {
            chart.addSubtitle(0, text(figure.subtitle()));
        }
        notes.forEach(n -> chart.addSubtitle(text(n)));
        LegendTitle legend = chart.getLegend();
        legend.setItemFont(TICK_FONT);
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setFrame(org.jfree.chart.block.BlockBorder.NONE);
        // Lets the SVG writer group each series' shapes, so a reader (or a test) can find them.
        chart.setElementHinting(true);
        return chart;
    }

    /** The main panel: the inputs' points, their curves, β_phys, and what a check judged the run against. */
    private static XYPlot mainPlot(Figure figure, long[] samples) {
        FigureView view = figure.view();
        XYSeriesCollection points = new XYSeriesCollection();
        XYLineAndShapeRenderer pointRenderer = new XYLineAndShapeRenderer(false, true);
        XYSeriesCollection curves = new XYSeriesCollection();
        XYLineAndShapeRenderer curveRenderer = new XYLineAndShapeRenderer(true, false);
        // One path per curve: drawn segment by segment, a dash pattern restarts every sample and looks solid.
        curveRenderer.setDrawSeriesLineAsPath(true);
        XYSeriesCollection limits = new XYSeriesCollection();
        XYLineAndShapeRenderer limitRenderer = new XYLineAndShapeRenderer(true, false);
        limitRenderer.setDrawSeriesLineAsPath(true);
        Set<PhysicalLimit> drawnLimits = new LinkedHashSet<>();
        List<FigureSeries> all = figure.series();
        for (int i = 0; i < all.size(); i++) {
            FigureSeries s = all.get(i);
            if (!s.points().isEmpty()) {
                XYSeries xy = new XYSeries(s.legendLabel(), false, true);
                XYSeries glitches = new XYSeries(s.label() + ": glitches left out of the fit", false, true);
                // A size of 0 has no place on a log axis (and no bandwidth worth drawing).
                s.points().stream().filter(p -> p.bytes() > 0).forEach(p -> add(view, p.leftOut() ? glitches : xy,
                        p.bytes(), pointY(view, s, p)));
                for (XYSeries part : glitches.isEmpty() ? List.of(xy) : List.of(xy, glitches)) {
                    int k = points.getSeriesCount();
                    points.addSeries(part);
                    pointRenderer.setSeriesPaint(k, SeriesStyle.colour(i));
                    pointRenderer.setSeriesShape(k, SeriesStyle.marker(i));
                    pointRenderer.setSeriesShapesFilled(k, part == xy);
                }
            }
            for (int j = 0; j < s.models().size(); j++) {
                ModelCurve m = s.models().get(j);
                XYSeries xy = new XYSeries(modelLabel(figure, s, m), false, true);
                for (long bytes : samples) {
                    add(view, xy, bytes, view == FigureView.TIME ? m.timeUs().applyAsDouble(bytes)
                            : s.modelBusBwGBps(m, bytes));
                }
                int k = curves.getSeriesCount();
                curves.addSeries(xy);
                curveRenderer.setSeriesPaint(k, modelPaint(figure, i, j));
                curveRenderer.setSeriesStroke(k, SeriesStyle.curve(k));
            }
            if (s.limit() != null && drawnLimits.add(s.limit())) {
                PhysicalLimit l = s.limit();
                XYSeries xy = level(view, s, "β_phys " + l.interconnect() + ": " + digits(l.betaGBps()) + " GB/s",
                        l.betaGBps(), samples);
                int k = limits.getSeriesCount();
                limits.addSeries(xy);
                limitRenderer.setSeriesPaint(k, SeriesStyle.colour(i).darker());
                limitRenderer.setSeriesStroke(k, LIMIT_STROKE);
            }
        }
        double top = Math.max(maxY(points), Math.max(maxY(curves), maxY(limits)));
        for (Judgement.Level l : figure.judgement().levels()) {
            top = Math.max(top, view == FigureView.TIME ? 0 : l.busBwGBps());
        }
        ValueAxis yAxis = yAxis(view, top);
        if (view == FigureView.BUSBW && !figure.judgement().levels().isEmpty()) {
            // a range marker does not widen the axis: the line rate must show even far above the points
            yAxis.setRange(0, top * 1.05);
        } else if (view != FigureView.BUSBW) {
            // a log axis spans what was measured and modelled; a level's line (a slope in the time view) is cut there
            double low = Math.min(minY(points), minY(curves));
            double high = Math.max(maxY(points), maxY(curves));
            for (Judgement.Level l : figure.judgement().levels()) {
                low = view == FigureView.TIME ? low : Math.min(low, l.busBwGBps());
                high = view == FigureView.TIME ? high : Math.max(high, l.busBwGBps());
            }
            if (low > 0 && high >= low) {
                yAxis.setRange(low / 1.5, high * 1.5);
            }
        }
        XYPlot plot = new XYPlot(points, null, yAxis, pointRenderer);
        plot.setDataset(1, curves);
        plot.setRenderer(1, curveRenderer);
        plot.setDataset(2, limits);
        plot.setRenderer(2, limitRenderer);
        JudgementLayer.draw(figure, samples, plot, 3);
        stylePlot(plot);
        return plot;
    }

    /** A point's y: its busbw, or its time (derived from the busbw with N where the source gave none). */
    private static double pointY(FigureView view, FigureSeries s, SizePoint p) {
        if (view != FigureView.TIME) {
            return p.busBwGBps();
        }
        if (p.timeUs() != null) {
            return p.timeUs();
        }
        return s.ranks() == null ? Double.NaN : s.collective().timeUs(p.bytes(), p.busBwGBps(), s.ranks());
    }

    /**
     * A busbw level (β_phys, a line rate): flat in a busbw view, drawn past both ends; in the time view the time
     * that busbw takes per size, a line of slope one, where N is known.
     */
    static XYSeries level(FigureView view, FigureSeries s, String label, double busBwGBps, long[] samples) {
        XYSeries xy = new XYSeries(label, false, true);
        if (view != FigureView.TIME) {
            xy.add(samples[0] / 2.0, busBwGBps);
            xy.add(samples[samples.length - 1] * 2.0, busBwGBps);
        } else if (s.ranks() != null) {
            for (long bytes : samples) {
                add(view, xy, bytes, s.collective().timeUs(bytes, busBwGBps, s.ranks()));
            }
        }
        return xy;
    }

    /** Adds a point where the view can show it: finite, and above 0 on a log axis. */
    static void add(FigureView view, XYSeries xy, double x, double y) {
        if (Double.isFinite(y) && (view == FigureView.BUSBW ? y >= 0 : y > 0)) {
            xy.add(x, y);
        }
    }

    /** busbw from 0 on a linear axis with 5 to 11 labels, or busbw or time on a base-10 log axis. */
    private static ValueAxis yAxis(FigureView view, double top) {
        if (view == FigureView.BUSBW) {
            NumberAxis axis = new NumberAxis("bus bandwidth (GB/s)");
            axis.setAutoRangeIncludesZero(true);
            if (top > 0) {
                // JFreeChart packs labels as tight as they fit (26 of them up to 500 GB/s); 5 to 11 read faster.
                axis.setTickUnit(new NumberTickUnit(niceStep(top / 10)), false, true);
            }
            style(axis);
            return axis;
        }
        LogAxis axis = new LogAxis(view == FigureView.TIME ? "time per iteration (µs, log scale)"
                : "bus bandwidth (GB/s, log scale)");
        axis.setBase(10);
        axis.setTickUnit(new NumberTickUnit(1), false, true);
        axis.setNumberFormatOverride(new java.text.DecimalFormat("0.###"));
        axis.setMinorTickMarksVisible(true);
        axis.setSmallestValue(1e-3);
        style(axis);
        return axis;
    }

    private static String digits(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }

    private static XYPlot residualPlot(Figure figure) {
        XYSeriesCollection errors = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setDrawSeriesLineAsPath(true);
        renderer.setDefaultSeriesVisibleInLegend(false);
        List<FigureSeries> all = figure.series();
        for (int i = 0; i < all.size(); i++) {
            FigureSeries s = all.get(i);
            for (int j = 0; j < s.models().size(); j++) {
                ModelCurve m = s.models().get(j);
                XYSeries xy = new XYSeries("error of " + modelLabel(figure, s, m), false, true);
                for (SizePoint p : s.points()) {
                    if (p.timeUs() != null && p.timeUs() > 0 && p.bytes() > 0) {
                        double predicted = m.timeUs().applyAsDouble(p.bytes());
                        if (Double.isFinite(predicted)) {
                            xy.add(p.bytes(), (predicted - p.timeUs()) / p.timeUs() * 100.0);
                        }
                    }
                }
                int k = errors.getSeriesCount();
                errors.addSeries(xy);
                renderer.setSeriesPaint(k, modelPaint(figure, i, j));
                renderer.setSeriesStroke(k, SeriesStyle.curve(k));
                renderer.setSeriesShape(k, new Ellipse2D.Double(-2.5, -2.5, 5, 5));
            }
        }
        NumberAxis errorAxis = new NumberAxis("time error (%)");
        errorAxis.setAutoRangeIncludesZero(true);
        style(errorAxis);
        XYPlot plot = new XYPlot(errors, null, errorAxis, renderer);
        ValueMarker zero = new ValueMarker(0, Color.GRAY, new BasicStroke(1f));
        plot.addRangeMarker(zero);
        stylePlot(plot);
        return plot;
    }

    /**
     * Marks each size where a drawn model changes protocol or algorithm (an envelope's picks), dotted, labelled
     * {@code from → to}: the bends of its curve, named.
     */
    private static void markSwitches(Figure figure, XYPlot plot) {
        for (FigureSeries s : figure.series()) {
            for (ModelCurve m : s.models()) {
                for (AlgorithmChoices.Switch w : m.switches()) {
                    plot.addDomainMarker(MarkerLabel.on(new ValueMarker(w.bytes(), Color.GRAY, SWITCH_STROKE),
                            w.from() + " → " + w.to(), TICK_FONT, RectangleAnchor.TOP_LEFT, TextAnchor.TOP_RIGHT,
                            new RectangleInsets(6, 0, 0, 4)));
                }
            }
        }
    }

    /** Marks, for each series with two or more curves, where its first two swap order; says so when they never do. */
    private static void markCrossovers(Figure figure, long[] samples, XYPlot plot, List<String> notes) {
        for (FigureSeries s : figure.series()) {
            if (s.models().size() < 2) {
                continue;
            }
            ModelCurve a = s.models().get(0);
            ModelCurve b = s.models().get(1);
            // the first series' crossovers as its model computes them (predict's), else found on the curves
            List<Crossover> found = s == figure.series().get(0) && !figure.crossoverBytes().isEmpty()
                    ? figure.crossoverBytes().stream().map(x -> Crossover.at(a, b, x)).toList()
                    : Crossover.find(a, b, samples).stream().toList();
            String sizes = BinarySizeFormat.of(samples[0]) + " … " + BinarySizeFormat.of(samples[samples.length - 1]);
            for (Crossover c : found) {
                plot.addDomainMarker(MarkerLabel.on(new ValueMarker(c.bytes(), Color.DARK_GRAY, new BasicStroke(1.2f)),
                        String.format("%s/%s crossover at %s: %s faster from here", c.fasterBefore(),
                                c.fasterAfter(), BinarySizeFormat.of(c.bytes()), c.fasterAfter()),
                        TICK_FONT, RectangleAnchor.TOP_RIGHT, TextAnchor.TOP_LEFT, new RectangleInsets(6, 4, 0, 0)));
            }
            if (found.isEmpty()) {
                String faster = a.timeUs().applyAsDouble(samples[0]) <= b.timeUs().applyAsDouble(samples[0])
                        ? a.name() : b.name();
                notes.add(String.format("%s: no %s/%s crossover in %s; %s faster throughout", s.label(), a.name(),
                        b.name(), sizes, faster));
            }
        }
    }

    /**
     * A base-2 log axis whose labelled ticks fall on whole powers of 1024 where the width allows. LogAxis puts
     * its first tick at floor(log₂ lower bound) and steps by the tick unit from there, so the lower bound is
     * chosen to make that first tick a multiple of the unit, at least a third of an octave below the smallest
     * size (a marker is never cut in half by the axis).
     */
    private static LogAxis sizeAxis(SizeRange range, int widthPx) {
        double lowExp = log2(range.minBytes());
        double highExp = log2(range.maxBytes());
        int maxLabels = Math.max(2, (int) (widthPx * 0.85 / PX_PER_SIZE_LABEL));
        int unit = OCTAVES_PER_TICK[OCTAVES_PER_TICK.length - 1];
        for (int u : OCTAVES_PER_TICK) {
            if ((highExp - lowExp) / u + 1 <= maxLabels) {
                unit = u;
                break;
            }
        }
        double firstTick = Math.floor((lowExp - 1.0 / 3) / unit) * unit;
        double lower = Math.min(firstTick + 0.99, lowExp - 1.0 / 3);
        double upper = highExp + 1.0 / 3;
        LogAxis axis = new LogAxis("message size (bytes; K, M, G = 2¹⁰, 2²⁰, 2³⁰)");
        axis.setBase(2);
        axis.setNumberFormatOverride(new BinarySizeFormat());
        axis.setTickUnit(new NumberTickUnit(unit, new BinarySizeFormat(), unit), false, true);
        axis.setMinorTickMarksVisible(true);
        axis.setAutoRange(false);
        axis.setRange(Math.pow(2, lower), Math.pow(2, upper));
        style(axis);
        return axis;
    }

    /** Sizes to evaluate model curves at: {@value #SAMPLES_PER_OCTAVE} per octave, both ends included. */
    public static long[] samples(SizeRange range) {
        double lowExp = log2(range.minBytes());
        double highExp = log2(range.maxBytes());
        int n = (int) Math.ceil((highExp - lowExp) * SAMPLES_PER_OCTAVE);
        Set<Long> sizes = new LinkedHashSet<>();
        for (int i = 0; i <= n; i++) {
            sizes.add(Math.round(Math.pow(2, Math.min(highExp, lowExp + (double) i / SAMPLES_PER_OCTAVE))));
        }
        sizes.add(range.maxBytes());
        return sizes.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static double minY(XYSeriesCollection c) {
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i < c.getSeriesCount(); i++) {
            if (c.getSeries(i).getItemCount() > 0) {
                min = Math.min(min, c.getSeries(i).getMinY());
            }
        }
        return min;
    }

    private static double maxY(XYSeriesCollection c) {
        double max = 0;
        for (int i = 0; i < c.getSeriesCount(); i++) {
            if (c.getSeries(i).getItemCount() > 0) {
                max = Math.max(max, c.getSeries(i).getMaxY());
            }
        }
        return max;
    }

    /** The 1, 2 or 5 × 10ᵏ at or just above {@code rough}. */
    static double niceStep(double rough) {
        double decade = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double m : new double[] {1, 2, 5}) {
            if (m * decade >= rough) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    private static String modelLabel(Figure figure, FigureSeries s, ModelCurve m) {
        if (s.kind() == org.ncclharness.calibration.measure.SourceKind.PREDICTED && s.points().isEmpty()) {
            return "predicted: " + m.name() + (figure.series().size() > 1 ? " (" + s.label() + ")" : "");
        }
        return "model " + m.name() + (figure.series().size() > 1 ? " of " + s.label() : "");
    }

    /** One input: each model its own hue. Several inputs: a model takes its input's hue and its own dash. */
    private static Paint modelPaint(Figure figure, int series, int model) {
        boolean alone = figure.series().size() == 1;
        boolean noPoints = figure.series().get(series).points().isEmpty();
        return alone ? SeriesStyle.colour(noPoints ? model : model + 1) : SeriesStyle.colour(series);
    }

    private static TextTitle text(String line) {
        TextTitle t = new TextTitle(line, SUBTITLE_FONT);
        t.setHorizontalAlignment(HorizontalAlignment.CENTER);
        t.setPaint(Color.DARK_GRAY);
        return t;
    }

    private static void style(org.jfree.chart.axis.ValueAxis axis) {
        axis.setLabelFont(LABEL_FONT);
        axis.setTickLabelFont(TICK_FONT);
    }

    private static void stylePlot(XYPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        plot.setOutlinePaint(Color.GRAY);
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }
}
