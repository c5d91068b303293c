package org.ncclharness.harness.figure;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.model.RingTree;
import org.ncclharness.calibration.predict.Prediction;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;
import org.ncclharness.calibration.measure.SizeText;

/**
 * The series {@code plot --predict} draws: a prediction model's own curve, or its Ring and Tree forms
 * ({@link RingTree}, docs/calibration.md) from the model's ring latency and bandwidth. Both are
 * {@link FigureSeries#predicted} series, labelled as predictions.
 */
public final class RingTreeFigure {

    /** The model Ring/Tree takes its latency and bandwidth from when a calibration holds several: method B. */
    public static final String DEFAULT_MODEL = "B";
    /** predict's default sizes, -b 1K -e 8G. */
    private static final SizeRange DEFAULT_RANGE = new SizeRange(1L << 10, 8L << 30);

    /** The algorithms {@code --algo} names. */
    public enum Algorithm {
        RING("Ring"),
        TREE("Tree");

        final String label;

        Algorithm(String label) {
            this.label = label;
        }
    }

    private RingTreeFigure() {
    }

    /** {@code --algo}'s values, checked: Ring and/or Tree, each once, in the order given. */
    public static List<Algorithm> algorithms(List<String> names) {
        List<Algorithm> out = new ArrayList<>();
        for (String n : names) {
            Algorithm a = null;
            for (Algorithm x : Algorithm.values()) {
                if (x.label.equalsIgnoreCase(n.trim())) {
                    a = x;
                }
            }
            if (a == null) {
                throw new InputException("--algo", 0, "unknown algorithm " + n + "; known: Ring, Tree");
            }
            if (out.contains(a)) {
                throw new InputException("--algo", 0, a.label + " is named twice");
            }
            out.add(a);
        }
        return out;
    }

    /** The prediction model's own curve. */
    public static FigureSeries modelSeries(PredictionModel pm) {
        return FigureSeries.predicted(pm.name() + " from " + pm.source(), pm.collective(), pm.ranks(),
                List.of(new ModelCurve(pm.name(), pm::timeUs)));
    }

    /** Ring and/or Tree in the order asked, from the model's ring. */
    public static FigureSeries series(PredictionModel pm, List<Algorithm> algorithms) {
        RingTree rt = ringTree(pm);
        List<ModelCurve> curves = new ArrayList<>();
        for (Algorithm a : algorithms) {
            curves.add(a == Algorithm.RING ? new ModelCurve("Ring", rt::ringUs) : new ModelCurve("Tree", rt::treeUs));
        }
        String from = pm.name().equals(PredictionSources.RING_FORMULA) ? "the ring formula"
                : pm.name() + " of " + pm.source();
        String what = "Ring/Tree from " + from + ": B = " + digits(rt.bwGBps()) + " GB/s, L = " + digits(rt.stepUs())
                + " us, binary tree (h = " + rt.treeDepth() + ", B_root = " + digits(rt.rootGBps()) + " GB/s)";
        return FigureSeries.predicted(what, pm.collective(), pm.ranks(), curves);
    }

    /** Four significant digits, no trailing zeros: 25, 2.272, 414. */
    private static String digits(double v) {
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    static RingTree ringTree(PredictionModel pm) {
        return Prediction.ringTree(pm).orElseThrow(() -> new InputException("--algo", 0, "Ring and Tree need a"
                + " single-tier alpha-beta AllReduce model (the ring formula, A, B, B+beta, naive, datasheet); "
                + pm.name() + " is " + pm.model().form() + " of " + pm.collective().ncclName()
                + ": pick one with --model B"));
    }

    /** The exact crossover, one line for stdout (the figure marks it at the sampled size). */
    public static String crossoverLine(PredictionModel pm) {
        RingTree rt = ringTree(pm);
        OptionalDouble x = rt.crossoverBytes();
        if (x.isEmpty()) {
            return "predicted Ring/Tree crossover: none; " + (rt.treeLatencyUs() < rt.ringLatencyUs()
                    ? "Tree" : "Ring") + " is faster at every size";
        }
        return String.format(Locale.ROOT, "predicted Ring/Tree crossover at %.0f bytes (%s): Tree faster below,"
                + " Ring above", x.getAsDouble(), SizeText.approx(x.getAsDouble()));
    }

    /** predict's default sizes, widened to any measured points drawn beside the prediction. */
    public static SizeRange range(List<FigureSeries> series) {
        long min = DEFAULT_RANGE.minBytes();
        long max = DEFAULT_RANGE.maxBytes();
        for (FigureSeries s : series) {
            for (SizePoint p : s.points()) {
                if (p.bytes() > 0) {
                    min = Math.min(min, p.bytes());
                    max = Math.max(max, p.bytes());
                }
            }
        }
        return new SizeRange(min, max);
    }
}
