package org.ncclharness.harness.figure;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.SourceKind;

/**
 * Everything one bus-bandwidth picture shows: a writer-neutral description that {@link BusBwChart} draws and
 * {@link ChartFile} and {@link ReportPage} write. It holds no drawing objects, so it can be built and checked in
 * plain tests.
 *
 * @param heading   the chart title, {@value #METRIC} standing where the view's quantity goes ({@code AllReduce
 *                  {metric}: H100 · N=8}), so each view titles what it shows
 * @param subtitle  one line under the title (the provenance of a single input), empty for none
 * @param series    the inputs, in legend order
 * @param range     sizes to sample model curves over; null to take them from the measured points
 * @param residuals add a panel with each model's percentage error per measured size
 * @param crossover mark where the first two model curves of each series swap order (Ring vs Tree)
 * @param crossoverBytes where the first series' first two curves swap order as their model computes it (the sizes
 *                  {@code predict} names); empty to find it on the curves
 * @param view      busbw (linear or log) or time against size
 * @param judgement what a check judged the run against, {@link Judgement#NONE} for a plain figure
 */
public record Figure(String heading, String subtitle, List<FigureSeries> series, SizeRange range, boolean residuals,
                     boolean crossover, List<Double> crossoverBytes, FigureView view, Judgement judgement)
        implements Picture {

    /** Where a heading names the view's quantity. */
    public static final String METRIC = "{metric}";

    public Figure {
        series = List.copyOf(series);
        crossoverBytes = List.copyOf(crossoverBytes);
        if (series.isEmpty()) {
            throw new IllegalArgumentException("a figure needs at least one series");
        }
        if (residuals && series.stream().noneMatch(s -> !s.models().isEmpty()
                && s.points().stream().anyMatch(p -> p.timeUs() != null))) {
            throw new IllegalArgumentException("residuals need a model curve over measured times");
        }
    }

    /**
     * The default picture of some inputs: titled by the collective and, for a single input, by its hardware, with
     * its provenance as the subtitle.
     */
    public static Figure of(List<FigureSeries> series) {
        Set<Collective> collectives = series.stream().map(FigureSeries::collective).collect(Collectors.toSet());
        String what = collectives.size() == 1
                ? collectives.iterator().next().ncclName() + " " + METRIC : METRIC;
        // A picture of predictions alone says so in its title too, not only in the legend.
        if (series.stream().allMatch(s -> s.kind() == SourceKind.PREDICTED && s.points().isEmpty())) {
            what = "Predicted " + what;
        }
        if (series.size() == 1) {
            FigureSeries only = series.get(0);
            String heading = only.hardware().isEmpty() ? what : what + ": " + only.hardware();
            return new Figure(heading, only.source(), series, null, false, false, List.of(), FigureView.BUSBW,
                    Judgement.NONE);
        }
        return new Figure(what + " of " + series.size() + " inputs", "", series, null, false, false, List.of(),
                FigureView.BUSBW, Judgement.NONE);
    }

    /** The residual panel gets extra height, so the main panel keeps its size. */
    @Override
    public int heightPx() {
        return residuals ? ReportPage.FIGURE_WITH_RESIDUALS_HEIGHT_PX : ReportPage.FIGURE_HEIGHT_PX;
    }

    @Override
    public org.jfree.chart.JFreeChart chart(int widthPx) {
        return BusBwChart.build(this, widthPx);
    }

    public Figure withResiduals(boolean r) {
        return new Figure(heading, subtitle, series, range, r, crossover, crossoverBytes, view, judgement);
    }

    public Figure withCrossover(boolean c) {
        return new Figure(heading, subtitle, series, range, residuals, c, crossoverBytes, view, judgement);
    }

    /** Crossovers marked where the model computes them (the sizes {@code predict} names). */
    public Figure withCrossoverAt(List<Double> bytes) {
        return new Figure(heading, subtitle, series, range, residuals, true, bytes, view, judgement);
    }

    public Figure withRange(SizeRange r) {
        return new Figure(heading, subtitle, series, r, residuals, crossover, crossoverBytes, view, judgement);
    }

    /** The same figure in another view. */
    public Figure withView(FigureView v) {
        return new Figure(heading, subtitle, series, range, residuals, crossover, crossoverBytes, v, judgement);
    }

    /** The heading with the view's quantity: {@code AllReduce bus bandwidth: H100 · N=8}. */
    @Override
    public String title() {
        String t = heading.replace(METRIC, view.quantity());
        return t.isEmpty() ? t : Character.toUpperCase(t.charAt(0)) + t.substring(1);
    }

    /** The figure in each of these views, in order: the views a page shows of one run. */
    public List<Figure> inViews(List<FigureView> views) {
        return views.stream().map(this::withView).toList();
    }

    /** The figure with what a check judged the run against drawn in. */
    public Figure withJudgement(Judgement j) {
        return new Figure(heading, subtitle, series, range, residuals, crossover, crossoverBytes, view, j);
    }

    /** The sizes the x axis spans: the given range, else the measured points' extent. */
    public SizeRange sizeRange() {
        if (range != null) {
            return range;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        List<FigureSeries> all = new java.util.ArrayList<>(series);
        if (judgement.reference() != null) {
            all.add(judgement.reference());
        }
        for (FigureSeries s : all) {
            for (SizePoint p : s.points()) {
                if (p.bytes() > 0) {
                    min = Math.min(min, p.bytes());
                    max = Math.max(max, p.bytes());
                }
            }
        }
        if (min == Long.MAX_VALUE) {
            throw new IllegalArgumentException("no measured point with a positive size and no size range given");
        }
        return new SizeRange(min, max);
    }
}
