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
 * @param title     the chart title
 * @param subtitle  one line under the title (the provenance of a single input), empty for none
 * @param series    the inputs, in legend order
 * @param range     sizes to sample model curves over; null to take them from the measured points
 * @param residuals add a panel with each model's percentage error per measured size
 * @param crossover mark where the first two model curves of each series swap order (Ring vs Tree)
 */
public record Figure(String title, String subtitle, List<FigureSeries> series, SizeRange range, boolean residuals,
                     boolean crossover) implements Picture {

    public Figure {
        series = List.copyOf(series);
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
                ? collectives.iterator().next().ncclName() + " bus bandwidth" : "Bus bandwidth";
        // A picture of predictions alone says so in its title too, not only in the legend.
        if (series.stream().allMatch(s -> s.kind() == SourceKind.PREDICTED && s.points().isEmpty())) {
            what = "Predicted " + what;
        }
        if (series.size() == 1) {
            FigureSeries only = series.get(0);
            String title = only.hardware().isEmpty() ? what : what + ": " + only.hardware();
            return new Figure(title, only.source(), series, null, false, false);
        }
        return new Figure(what + " of " + series.size() + " inputs", "", series, null, false, false);
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
        return new Figure(title, subtitle, series, range, r, crossover);
    }

    public Figure withCrossover(boolean c) {
        return new Figure(title, subtitle, series, range, residuals, c);
    }

    public Figure withRange(SizeRange r) {
        return new Figure(title, subtitle, series, r, residuals, crossover);
    }

    /** The sizes the x axis spans: the given range, else the measured points' extent. */
    public SizeRange sizeRange() {
        if (range != null) {
            return range;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (FigureSeries s : series) {
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
