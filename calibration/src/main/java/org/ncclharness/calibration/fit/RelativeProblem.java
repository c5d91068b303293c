package org.ncclharness.calibration.fit;

import java.util.List;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.optim.AbstractOptimizationProblem;
import org.apache.commons.math3.util.FastMath;
import org.ncclharness.calibration.model.ParametricTime;

/**
 * The relative least-squares problem of {@link RelativeLeastSquares} as Commons Math's Levenberg–Marquardt sees it:
 * residuals 1 − T(M_i; θ)/T_i over the free components of θ, each moved component put back within its bounds.
 *
 * <p>Why not {@code LeastSquaresBuilder}: its eager evaluation computes the Jacobian at every point the optimiser
 * tries, yet the optimiser reads it only at the start of an outer iteration, i.e. after a step it accepted; the
 * rejected steps pay for a Jacobian nobody reads (the bundled catalog's 21,384 fits try 688,529 points and read
 * 546,562 Jacobians, counted once). Its lazy evaluation computes the residuals twice per point (once for them,
 * once for the cost). Here each point tried
 * gets its residuals once and its Jacobian only when the optimiser asks. The arithmetic of both is the builder's,
 * operation for operation, so every fit ends on the same bits.
 */
final class RelativeProblem extends AbstractOptimizationProblem<LeastSquaresProblem.Evaluation>
        implements LeastSquaresProblem {

    private final List<? extends ParametricTime> models;
    private final List<FitPoints> points;
    /** θ with the fixed components; the free ones are overwritten per evaluation. */
    private final double[] start;
    private final int[] free;
    private final Bounds bounds;
    private final int n;
    private final RealVector x0;

    /**
     * @param start θ to start from; its free components start clamped within {@code bounds}
     * @param free  the indices of θ the optimiser moves, ascending
     */
    RelativeProblem(List<? extends ParametricTime> models, List<FitPoints> points, double[] start, int[] free,
                    Bounds bounds, int maxEvaluations) {
        super(maxEvaluations, maxEvaluations, null);
        this.models = models;
        this.points = points;
        this.start = start;
        this.free = free;
        this.bounds = bounds;
        this.n = points.stream().mapToInt(FitPoints::size).sum();
        double[] x = new double[free.length];
        for (int j = 0; j < free.length; j++) {
            x[j] = bounds.clamp(free[j], start[free[j]]);
        }
        this.x0 = new ArrayRealVector(x, false);
    }

    @Override
    public int getObservationSize() {
        return n;
    }

    @Override
    public int getParameterSize() {
        return free.length;
    }

    @Override
    public RealVector getStart() {
        return x0.copy();
    }

    @Override
    public Evaluation evaluate(RealVector point) {
        double[] x = point.toArray();
        for (int j = 0; j < free.length; j++) {
            x[j] = bounds.clamp(free[j], x[j]);
        }
        return new At(x);
    }

    /** θ: the start's fixed components with x in the free ones. */
    double[] theta(double[] x) {
        double[] theta = start.clone();
        for (int j = 0; j < free.length; j++) {
            theta[free[j]] = x[j];
        }
        return theta;
    }

    /**
     * The Jacobian as the optimiser takes it: it starts from −J ({@code scalarMultiply(-1).getData()}), which
     * Commons Math's matrix does entry by entry through bounds-checked accessors; here row by row on the arrays.
     * The product is the same (x·d, entry for entry).
     */
    private static final class Jacobian extends Array2DRowRealMatrix {

        Jacobian(double[][] data) {
            super(data, false);
        }

        @Override
        public RealMatrix scalarMultiply(double d) {
            double[][] data = getDataRef();
            double[][] out = new double[data.length][];
            for (int i = 0; i < data.length; i++) {
                out[i] = new double[data[i].length];
                for (int j = 0; j < out[i].length; j++) {
                    out[i][j] = data[i][j] * d;
                }
            }
            return new Array2DRowRealMatrix(out, false);
        }
    }

    /** One point the optimiser tried: its residuals at once, its Jacobian when first asked for. */
    private final class At implements Evaluation {

        private final double[] x;
        private final double[] theta;
        private final RealVector residuals;
        private RealMatrix jacobian;

        At(double[] x) {
            this.x = x;
            this.theta = theta(x);
            double[] r = new double[n];
            int row = 0;
            for (int m = 0; m < models.size(); m++) {
                double[] t = points.get(m).timeUs();
                double[] value = new double[t.length];
                models.get(m).timesUs(points.get(m).bytes(), theta, value);
                for (int i = 0; i < t.length; i++, row++) {
                    // target − value, as the builder's evaluation subtracts them
                    r[row] = 1.0 - value[i] / t[i];
                }
            }
            this.residuals = new ArrayRealVector(r, false);
        }

        @Override
        public RealMatrix getJacobian() {
            if (jacobian == null) {
                double[][] jac = new double[n][free.length];
                int row = 0;
                for (int m = 0; m < models.size(); m++) {
                    double[] t = points.get(m).timeUs();
                    double[][] g = models.get(m).gradients(points.get(m).bytes(), theta);
                    for (int i = 0; i < t.length; i++, row++) {
                        for (int j = 0; j < free.length; j++) {
                            jac[row][j] = g[i][free[j]] / t[i];
                        }
                    }
                }
                jacobian = new Jacobian(jac);
            }
            return jacobian;
        }

        @Override
        public RealVector getResiduals() {
            return residuals;
        }

        @Override
        public RealVector getPoint() {
            return new ArrayRealVector(x);
        }

        /** The norm of the residuals, computed as Commons Math's own evaluations do. */
        @Override
        public double getCost() {
            return FastMath.sqrt(residuals.dotProduct(residuals));
        }

        @Override
        public double getRMS() {
            double cost = getCost();
            return FastMath.sqrt(cost * cost / n);
        }

        /** (JᵀJ)⁻¹, as Commons Math's own evaluations give it. */
        @Override
        public RealMatrix getCovariances(double threshold) {
            RealMatrix j = getJacobian();
            return new QRDecomposition(j.transpose().multiply(j), threshold).getSolver().getInverse();
        }

        @Override
        public RealVector getSigma(double covarianceSingularityThreshold) {
            RealMatrix cov = getCovariances(covarianceSingularityThreshold);
            double[] sigma = new double[cov.getColumnDimension()];
            for (int i = 0; i < sigma.length; i++) {
                sigma[i] = FastMath.sqrt(cov.getEntry(i, i));
            }
            return new ArrayRealVector(sigma, false);
        }
    }
}
