package org.ncclharness.harness.figure;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import org.ncclharness.calibration.calibrate.SingleTierCalibrator;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.RingTree;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.predict.Prediction;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;

/**
 * The series {@code plot --predict} draws: a prediction model's own curve, or its Ring and Tree: the ideal forms
 * ({@link RingTree}, docs/calibration.md) from a single-tier α-β model's ring latency and bandwidth, or the fastest
 * protocol of each algorithm of an algorithm envelope (a multi-domain calibration's {@code algorithms}) or of NCCL's
 * tuner. Both are {@link FigureSeries#predicted} series, labelled as predictions.
 */
public final class RingTreeFigure {

    /**
     * The models {@code --algo} draws when none is named, the first the source has: method B of a single-domain
     * run, the algorithm envelope of a multi-domain one.
     */
    static final List<String> DEFAULT_MODELS = List.of(SingleTierCalibrator.METHOD_B, TwoTierCalibrator.ALGORITHMS);
    /** Every calibrated model whose Ring and Tree can be drawn, in the order a refusal names them. */
    private static final List<String> CANDIDATES = List.of(SingleTierCalibrator.METHOD_B,
            SingleTierCalibrator.METHOD_A, SingleTierCalibrator.METHOD_B_FITTED_BETA, SingleTierCalibrator.NAIVE,
            TwoTierCalibrator.ALGORITHMS);
    /** predict's default sizes, -b 1K -e 8G. */
    private static final SizeRange DEFAULT_RANGE = new SizeRange(1L << 10, 8L << 30);

    /** The algorithms {@code --algo} names. */
    public enum Choice {
        RING(Algorithm.RING),
        TREE(Algorithm.TREE);

        final Algorithm algorithm;

        Choice(Algorithm algorithm) {
            this.algorithm = algorithm;
        }
    }

    /**
     * A model's Ring and Tree as the figure draws them, what the legend says of them, and the crossover line
     * {@code predict} prints for the model.
     */
    record Split(ModelCurve ring, ModelCurve tree, String what, String crossover, List<Double> crossoverBytes) { }

    private RingTreeFigure() {
    }

    /** {@code --algo}'s values, checked: Ring and/or Tree, each once, in the order given. */
    public static List<Choice> algorithms(List<String> names) {
        List<Choice> out = new ArrayList<>();
        for (String n : names) {
            Choice a = null;
            for (Choice x : Choice.values()) {
                if (x.algorithm.label().equalsIgnoreCase(n.trim())) {
                    a = x;
                }
            }
            if (a == null) {
                throw new InputException("--algo", 0, "unknown algorithm " + n + "; known: Ring, Tree");
            }
            if (out.contains(a)) {
                throw new InputException("--algo", 0, a.algorithm.label() + " is named twice");
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

    /** Ring and/or Tree in the order asked, from the model's own two algorithms. */
    public static FigureSeries series(PredictionModel pm, List<Choice> algorithms) {
        Split split = split(pm).orElseThrow(() -> refusal(what(pm), List.of()));
        List<ModelCurve> curves = new ArrayList<>();
        for (Choice a : algorithms) {
            curves.add(a == Choice.RING ? split.ring() : split.tree());
        }
        return FigureSeries.predicted(split.what(), pm.collective(), pm.ranks(), curves);
    }

    /** The crossover line {@code predict} prints for the model, for standard output (the figure marks it too). */
    public static String crossoverLine(PredictionModel pm) {
        return split(pm).map(Split::crossover).orElseThrow(() -> refusal(what(pm), List.of()));
    }

    /** Where the model's Ring and Tree change places, as {@code predict} computes it (the figure marks these). */
    public static List<Double> crossoverBytes(PredictionModel pm) {
        return split(pm).map(Split::crossoverBytes).orElse(List.of());
    }

    /**
     * The model {@code --algo} draws when {@code --model} names none: the first of {@link #DEFAULT_MODELS} the
     * source has with a Ring and a Tree; else refused, naming what would work.
     *
     * @param resolve the source's model by name, as {@code predict --model NAME} takes it
     */
    public static PredictionModel defaultModel(Function<String, PredictionModel> resolve) {
        for (String name : DEFAULT_MODELS) {
            Optional<PredictionModel> pm = tryResolve(resolve, name);
            if (pm.isPresent() && split(pm.get()).isPresent()) {
                return pm.get();
            }
        }
        throw refusal("the source has neither " + String.join(" nor ", DEFAULT_MODELS) + " with both",
                usable(resolve));
    }

    /** A model named with {@code --model}: drawn when it has a Ring and a Tree, else refused naming what would work. */
    public static PredictionModel named(PredictionModel pm, Function<String, PredictionModel> resolve) {
        if (split(pm).isPresent()) {
            return pm;
        }
        throw refusal(what(pm), usable(resolve));
    }

    /**
     * Ring and Tree of a model that has both: a single-tier α-β AllReduce model's ideal forms ({@link RingTree}), an
     * algorithm envelope's or NCCL's tuner's fastest protocol of each (what {@code predict} compares); empty for any
     * other model, or where Tree is no candidate.
     */
    static Optional<Split> split(PredictionModel pm) {
        double[] theta = pm.theta();
        String fastest = "Ring/Tree from " + pm.name() + " of " + pm.source() + ", each on its fastest protocol";
        return pm.model().accept(new OtherwiseVisitor<Optional<Split>>() {
            @Override
            public Optional<Split> singleTier(SingleTierModel s) {
                return Prediction.ringTree(pm).map(rt -> ideal(pm, rt));
            }

            @Override
            public Optional<Split> algorithmEnvelope(AlgorithmEnvelopeModel a) {
                if (a.fastestUs(Algorithm.TREE, 1, theta).isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new Split(enveloped(a, Algorithm.RING, theta), enveloped(a, Algorithm.TREE, theta),
                        fastest, predictsCrossover(pm), a.treeRingCrossovers(theta)));
            }

            @Override
            public Optional<Split> ncclTuner(NcclTunerModel n) {
                if (n.fastest(Algorithm.TREE, 1).isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new Split(tuned(n, Algorithm.RING), tuned(n, Algorithm.TREE), fastest,
                        predictsCrossover(pm), n.treeRingCrossoverBytes().stream().boxed().toList()));
            }

            @Override
            protected Optional<Split> otherwise(CostModel m) {
                return Optional.empty();
            }
        });
    }

    private static ModelCurve enveloped(AlgorithmEnvelopeModel a, Algorithm algorithm, double[] theta) {
        return new ModelCurve(algorithm.label(), b -> a.fastestUs(algorithm, b, theta).orElse(Double.NaN));
    }

    private static ModelCurve tuned(NcclTunerModel n, Algorithm a) {
        return new ModelCurve(a.label(), b -> n.fastest(a, b).map(c -> n.time(c, b)).orElse(Double.NaN));
    }

    /** The raw ring formula's or a single-tier fit's Ring, and Tree beside it (docs/calibration.md). */
    private static Split ideal(PredictionModel pm, RingTree rt) {
        String from = pm.name().equals(PredictionSources.RING_FORMULA) ? "the ring formula"
                : pm.name() + " of " + pm.source();
        String what = "Ring/Tree from " + from + ": B = " + digits(rt.bwGBps()) + " GB/s, L = " + digits(rt.stepUs())
                + " us, binary tree (h = " + rt.treeDepth() + ", B_root = " + digits(rt.rootGBps()) + " GB/s)";
        OptionalDouble x = rt.crossoverBytes();
        String crossover = x.isEmpty() ? "predicted Ring/Tree crossover: none; " + (rt.treeLatencyUs()
                < rt.ringLatencyUs() ? "Tree" : "Ring") + " is faster at every size"
                : String.format(Locale.ROOT, "predicted Ring/Tree crossover at %.0f bytes (%s): Tree faster below,"
                + " Ring above", x.getAsDouble(), SizeText.approx(x.getAsDouble()));
        return new Split(new ModelCurve("Ring", rt::ringUs), new ModelCurve("Tree", rt::treeUs), what, crossover,
                x.stream().boxed().toList());
    }

    /** The words {@code predict --bytes} prints of the model's other algorithm: the same crossover, found alike. */
    private static String predictsCrossover(PredictionModel pm) {
        return "predicted Ring/Tree crossover: " + Prediction.of(pm, 1).alternative()
                .map(Prediction.Alternative::crossover).orElse("none");
    }

    /** The source's models, among those that can have both, whose Ring and Tree the figure can draw. */
    private static List<String> usable(Function<String, PredictionModel> resolve) {
        return CANDIDATES.stream().filter(n -> tryResolve(resolve, n).flatMap(RingTreeFigure::split).isPresent())
                .toList();
    }

    /** The source's model by that name; empty where the source has none by it. */
    private static Optional<PredictionModel> tryResolve(Function<String, PredictionModel> resolve, String name) {
        try {
            return Optional.of(resolve.apply(name));
        } catch (InputException e) {
            return Optional.empty();
        }
    }

    private static String what(PredictionModel pm) {
        return pm.name() + " is " + pm.model().form() + " of " + pm.collective().ncclName();
    }

    private static InputException refusal(String why, List<String> usable) {
        return new InputException("--algo", 0, "Ring and Tree come from a single-tier alpha-beta AllReduce model (the"
                + " ring formula, A, B, B+beta, naive, datasheet), the algorithm envelope of a multi-domain AllReduce"
                + " (algorithms) or NCCL's tuner; " + why + ": " + (usable.isEmpty() ? "none of this source's models"
                + " has both; calibrate a single-domain AllReduce (for B) or a multi-domain one (for algorithms)"
                : "pick " + (usable.size() == 1 ? "" : "one of ") + String.join(", ", usable) + " with --model"));
    }

    /** Four significant digits, no trailing zeros: 25, 2.272, 414. */
    private static String digits(double v) {
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
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
