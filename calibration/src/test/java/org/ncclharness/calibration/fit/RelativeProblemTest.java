package org.ncclharness.calibration.fit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.math3.exception.MathIllegalStateException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem.Evaluation;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.ParametricTime;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * {@link RelativeProblem} (residuals once per point tried, the Jacobian only where the optimiser reads it) against
 * the problem Commons Math's {@link LeastSquaresBuilder} makes of the same model with eager evaluation: on every
 * bundled run, the protocol envelope from starts at several latency ratios and, on the runs across nodes, the
 * algorithm envelope with the nodes as domains, the optimum is the same to the last bit (or both fail alike). The
 * envelopes are the piecewise models whose fits reject most steps, where the two problems differ most in work.
 */
class RelativeProblemTest {

    private static final double[][] RATIOS = {{1.5, 2}, {4, 10}, {8, 30}};

    record Case(String id, ParametricTime model, FitPoints points, List<double[]> starts, boolean[] free,
                Bounds bounds) {
        @Override
        public String toString() {
            return id + " " + model;
        }
    }

    static Stream<Case> bundledEnvelopes() {
        List<Case> cases = new ArrayList<>();
        for (Dataset d : DatasetCatalog.bundled().all()) {
            Integer gpus = d.metadata().gpus();
            if (gpus == null || gpus < 2) {
                continue;
            }
            FitPoints points = FitPoints.from(d.sweep(), gpus);
            if (points.size() < 8) {
                continue;
            }
            double t0 = points.timeUs()[0];
            double beta = points.busBwGBps()[points.largest()];
            List<double[]> starts = new ArrayList<>();
            for (double[] r : RATIOS) {
                starts.add(new double[] {t0 / 20, t0 / 20 * r[0], t0 / 20 * r[1], beta, 0.3, 0.8, t0 / 40, 0.9});
            }
            double[] lower = {0, 0, 0, 1e-9, 0.05, 0.05, 0, 0.05};
            boolean[] free = new boolean[8];
            Arrays.fill(free, 0, 6, true);
            cases.add(new Case(d.id(), new ProtocolEnvelopeModel(d.collective(), gpus, 1), points,
                    starts.stream().map(s -> Arrays.copyOf(s, 6)).toList(), Arrays.copyOf(free, 6),
                    Bounds.below(Arrays.copyOf(lower, 6))));
            Integer hosts = d.metadata().hosts();
            if (d.collective() == Collective.ALL_REDUCE && hosts != null && hosts > 1 && gpus % hosts == 0
                    && gpus / hosts > 1) {
                boolean[] across = free.clone();
                across[AlgorithmEnvelopeModel.NET_LATENCY] = true;
                across[AlgorithmEnvelopeModel.TREE_FACTOR] = true;
                cases.add(new Case(d.id(), new AlgorithmEnvelopeModel(d.collective(),
                        new TwoTierConfig(hosts, gpus / hosts), 2), points, starts, across,
                        Bounds.below(lower).withCeiling(AlgorithmEnvelopeModel.TREE_FACTOR, 0.92)));
            }
        }
        assertThat(cases).hasSizeGreaterThanOrEqualTo(60);
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bundledEnvelopes")
    void everyStartEndsOnTheBuildersBits(Case c) {
        for (double[] start : c.starts()) {
            String ours = outcome(() -> RelativeLeastSquares.fit(List.of(c.model()), List.of(c.points()), start,
                    c.free(), c.bounds()));
            String builders = outcome(() -> builderFit(c.model(), c.points(), start, c.free(), c.bounds()));
            assertThat(ours).as("from %s", Arrays.toString(start)).isEqualTo(builders);
        }
    }

    /**
     * The per-θ batch a fit evaluates ({@code timesUs}, {@code gradients}, and both with the pieces the times found
     * handed to the gradients) has, size by size, the bits of the single-size methods every other caller uses, at
     * each start and at the fitted θ.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bundledEnvelopes")
    void theBatchIsTheSingleSizeArithmetic(Case c) {
        double[] bytes = c.points().bytes();
        List<double[]> thetas = new ArrayList<>(c.starts());
        thetas.add(RelativeLeastSquares.bestOf(List.of(c.model()), List.of(c.points()), c.starts(), c.free(),
                c.bounds()));
        for (double[] theta : thetas) {
            double[] batch = new double[bytes.length];
            c.model().timesUs(bytes, theta, batch);
            double[][] gradients = new double[bytes.length][theta.length];
            for (double[] row : gradients) {
                Arrays.fill(row, Double.NaN); // what a previous θ left: every entry must be written over
            }
            c.model().gradients(bytes, theta, gradients);
            double[] withPieces = new double[bytes.length];
            int[] pieces = new int[bytes.length];
            c.model().timesUs(bytes, theta, withPieces, pieces);
            double[][] fromPieces = new double[bytes.length][theta.length];
            for (double[] row : fromPieces) {
                Arrays.fill(row, Double.NaN);
            }
            c.model().gradients(bytes, theta, fromPieces, pieces);
            for (int i = 0; i < bytes.length; i++) {
                long bits = Double.doubleToRawLongBits(c.model().timeUs(bytes[i], theta));
                assertThat(Double.doubleToRawLongBits(batch[i])).isEqualTo(bits);
                assertThat(Double.doubleToRawLongBits(withPieces[i])).isEqualTo(bits);
                assertThat(gradients[i]).containsExactly(c.model().gradient(bytes[i], theta));
                assertThat(fromPieces[i]).containsExactly(c.model().gradient(bytes[i], theta));
            }
        }
    }

    /**
     * The Jacobian an evaluation hands out: J itself to any reader (the builder's entries, ∂T/∂θ_j / T_i), and to the
     * optimiser's {@code scalarMultiply(-1)} −J, the same bits either way, at each start of every bundled envelope;
     * also where another point was evaluated after it (its latencies 100 times larger, so its sizes take other
     * candidates): the problem's record of each size's candidate is then that point's, not this one's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bundledEnvelopes")
    void theJacobianIsTheBuildersEntryForEntry(Case c) {
        int[] idx = java.util.stream.IntStream.range(0, c.free().length).filter(j -> c.free()[j]).toArray();
        for (double[] start : c.starts()) {
            RelativeProblem problem = new RelativeProblem(List.of(c.model()), List.of(c.points()), start, idx,
                    c.bounds(), 2_000);
            var evaluation = problem.evaluate(problem.getStart());
            double[] theta = problem.theta(evaluation.getPoint().toArray());
            assertJacobian(c, idx, evaluation, theta);
            problem.evaluate(problem.getStart().mapMultiply(100));
            assertJacobian(c, idx, evaluation, theta);
        }
    }

    /** The evaluation's J and −J against the builder's entries at θ. */
    private static void assertJacobian(Case c, int[] idx, Evaluation evaluation, double[] theta) {
        double[] bytes = c.points().bytes();
        double[] t = c.points().timeUs();
        double[][] negated = evaluation.getJacobian().scalarMultiply(-1).getData();
        double[][] j = evaluation.getJacobian().getData();
        for (int i = 0; i < bytes.length; i++) {
            double[] g = c.model().gradient(bytes[i], theta);
            for (int k = 0; k < idx.length; k++) {
                double expected = g[idx[k]] / t[i];
                assertThat(Double.doubleToRawLongBits(j[i][k])).isEqualTo(Double.doubleToRawLongBits(expected));
                assertThat(Double.doubleToRawLongBits(negated[i][k]))
                        .isEqualTo(Double.doubleToRawLongBits(expected * -1));
            }
        }
    }

    /** θ's exact bits, or the failure's type. */
    private static String outcome(java.util.function.Supplier<double[]> fit) {
        try {
            return Arrays.toString(Arrays.stream(fit.get()).mapToLong(Double::doubleToRawLongBits).toArray());
        } catch (MathIllegalStateException e) {
            return e.getClass().getSimpleName();
        }
    }

    /** The fit as Commons Math's builder makes its problem: value and Jacobian at every point tried. */
    private static double[] builderFit(ParametricTime model, FitPoints points, double[] start, boolean[] free,
                                       Bounds bounds) {
        int[] idx = java.util.stream.IntStream.range(0, free.length).filter(j -> free[j]).toArray();
        double[] bytes = points.bytes();
        double[] t = points.timeUs();
        int n = bytes.length;
        MultivariateJacobianFunction f = x -> {
            double[] theta = expand(start, idx, x.toArray());
            double[] value = new double[n];
            double[][] jac = new double[n][idx.length];
            for (int i = 0; i < n; i++) {
                value[i] = model.timeUs(bytes[i], theta) / t[i];
                double[] g = model.gradient(bytes[i], theta);
                for (int j = 0; j < idx.length; j++) {
                    jac[i][j] = g[idx[j]] / t[i];
                }
            }
            return new Pair<>(new ArrayRealVector(value, false), new Array2DRowRealMatrix(jac, false));
        };
        double[] target = new double[n];
        Arrays.fill(target, 1.0);
        double[] x0 = new double[idx.length];
        for (int j = 0; j < idx.length; j++) {
            x0[j] = bounds.clamp(idx[j], start[idx[j]]);
        }
        RealVector point = new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder()
                .start(x0).model(f).target(target)
                .parameterValidator(p -> {
                    RealVector out = p.copy();
                    for (int j = 0; j < idx.length; j++) {
                        out.setEntry(j, bounds.clamp(idx[j], out.getEntry(j)));
                    }
                    return out;
                })
                .maxEvaluations(2_000).maxIterations(2_000).lazyEvaluation(false).build()).getPoint();
        return expand(start, idx, point.toArray());
    }

    private static double[] expand(double[] start, int[] idx, double[] x) {
        double[] theta = start.clone();
        for (int j = 0; j < idx.length; j++) {
            theta[idx[j]] = x[j];
        }
        return theta;
    }
}
