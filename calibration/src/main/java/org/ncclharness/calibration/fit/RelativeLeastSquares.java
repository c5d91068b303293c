package org.ncclharness.calibration.fit;

import java.util.Arrays;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;
import org.ncclharness.calibration.model.CostModel;

/**
 * Least squares on relative error, Σ((T(M_i; θ) − T_i)/T_i)², over the free components of θ, by Commons Math's
 * Levenberg–Marquardt. Relative error because nccl-tests sizes span ten decades: absolute error would let the
 * largest sizes decide everything and make the latency meaningless. The model, the problem and the optimiser are
 * separate (Commons Math's design), so another model or optimiser plugs in unchanged.
 */
public final class RelativeLeastSquares {

    private static final int MAX_EVALUATIONS = 10_000;

    private RelativeLeastSquares() {
    }

    /**
     * @param start  θ to start from; the fixed components are kept as they are
     * @param free   which components the optimiser may move
     * @param lower  lower bound per component (a moved component is clamped to it)
     * @return θ at the optimum
     */
    public static double[] fit(CostModel model, double[] start, boolean[] free, double[] lower, FitPoints points) {
        int[] idx = freeIndices(free);
        if (idx.length == 0) {
            return start.clone();
        }
        double[] bytes = points.bytes();
        double[] t = points.timeUs();
        MultivariateJacobianFunction f = x -> {
            double[] theta = expand(start, idx, x.toArray());
            double[] value = new double[bytes.length];
            double[][] jac = new double[bytes.length][idx.length];
            for (int i = 0; i < bytes.length; i++) {
                value[i] = model.timeUs(bytes[i], theta) / t[i];
                double[] g = model.gradient(bytes[i], theta);
                for (int j = 0; j < idx.length; j++) {
                    jac[i][j] = g[idx[j]] / t[i];
                }
            }
            return new Pair<>(new ArrayRealVector(value, false), new Array2DRowRealMatrix(jac, false));
        };
        double[] target = new double[bytes.length];
        Arrays.fill(target, 1.0);
        double[] x0 = new double[idx.length];
        for (int j = 0; j < idx.length; j++) {
            x0[j] = Math.max(start[idx[j]], lower[idx[j]]);
        }
        LeastSquaresProblem problem = new LeastSquaresBuilder()
                .start(x0)
                .model(f)
                .target(target)
                .parameterValidator(p -> clamp(p, idx, lower))
                .maxEvaluations(MAX_EVALUATIONS)
                .maxIterations(MAX_EVALUATIONS)
                .lazyEvaluation(false)
                .build();
        LeastSquaresOptimizer.Optimum optimum = new LevenbergMarquardtOptimizer().optimize(problem);
        return expand(start, idx, optimum.getPoint().toArray());
    }

    private static RealVector clamp(RealVector p, int[] idx, double[] lower) {
        RealVector out = p.copy();
        for (int j = 0; j < idx.length; j++) {
            out.setEntry(j, Math.max(out.getEntry(j), lower[idx[j]]));
        }
        return out;
    }

    private static int[] freeIndices(boolean[] free) {
        int n = 0;
        for (boolean b : free) {
            n += b ? 1 : 0;
        }
        int[] idx = new int[n];
        for (int i = 0, k = 0; i < free.length; i++) {
            if (free[i]) {
                idx[k++] = i;
            }
        }
        return idx;
    }

    private static double[] expand(double[] start, int[] idx, double[] x) {
        double[] theta = start.clone();
        for (int j = 0; j < idx.length; j++) {
            theta[idx[j]] = x[j];
        }
        return theta;
    }
}
