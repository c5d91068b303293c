package org.ncclharness.calibration.fit;

import java.util.List;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.linear.AbstractRealMatrix;
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
 * once for the cost). Here each point tried gets its residuals once and its Jacobian only when the optimiser asks.
 * The arithmetic of both is the builder's, operation for operation, so every fit ends on the same bits.
 *
 * <p>Why the scratch arrays: the optimiser reads the Jacobian only as −J, a copy of it it then overwrites with its QR
 * decomposition ({@code scalarMultiply(-1).getData()}), and drops at the next Jacobian. The builder's way, a J, then
 * −J, then a copy of −J, each n × k, with the model's n × p gradients under them, was most of the 8 GB a
 * {@code calibrate --report} of the bundled catalog allocated, and what sized the young generation to it. Here the
 * model's gradients, its times and −J are written into arrays this problem owns, one fit at a time.
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
    /** Per run: the model's times at a θ, read as soon as written. */
    private final double[][] values;
    /** Per run: the model's gradients at a θ, one row of θ's length per size, read as soon as written. */
    private final double[][][] gradients;
    /** d·J for the optimiser's {@code scalarMultiply(d)}: its own until it asks for the next Jacobian. */
    private final double[][] scaled;
    /** Per run: the piece of the model each size's time came from ({@link ParametricTime#timesUs(double[], double[], double[], int[])}). */
    private final int[][] pieces;
    /**
     * The point whose times wrote {@link #pieces}: the optimiser asks for the Jacobian of the point it last
     * evaluated and accepted, so the pieces found for its residuals serve its gradients; any other point's Jacobian
     * finds them again.
     */
    private At piecesOf;

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
        this.values = new double[points.size()][];
        this.gradients = new double[points.size()][][];
        this.pieces = new int[points.size()][];
        for (int m = 0; m < points.size(); m++) {
            values[m] = new double[points.get(m).size()];
            pieces[m] = new int[points.get(m).size()];
            gradients[m] = new double[points.get(m).size()][start.length];
        }
        this.scaled = new double[n][free.length];
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
     * d·J at the point's θ into {@code out}: entry (i, j) is (∂T/∂θ_j at size i / T_i)·d, the builder's J entry times d as the
     * optimiser's {@code scalarMultiply} makes it, so the same bits (d = 1 leaves J's own).
     */
    private void jacobian(At at, double d, double[][] out) {
        int row = 0;
        for (int m = 0; m < models.size(); m++) {
            double[] t = points.get(m).timeUs();
            double[][] g = gradients[m];
            if (piecesOf == at) {
                models.get(m).gradients(points.get(m).bytes(), at.theta, g, pieces[m]);
            } else {
                models.get(m).gradients(points.get(m).bytes(), at.theta, g);
            }
            for (int i = 0; i < t.length; i++, row++) {
                for (int j = 0; j < free.length; j++) {
                    out[row][j] = g[i][free[j]] / t[i] * d;
                }
            }
        }
    }

    /**
     * J at one point's θ, computed when read. The optimiser reads it once, as {@code scalarMultiply(-1).getData()}: that is
     * written straight into {@link #scaled}; any other reader gets J itself, computed then.
     */
    private final class Jacobian extends AbstractRealMatrix {

        private final At at;
        private double[][] entries;

        Jacobian(At at) {
            this.at = at;
        }

        @Override
        public RealMatrix scalarMultiply(double d) {
            jacobian(at, d, scaled);
            return new Scratch(scaled);
        }

        private double[][] entries() {
            if (entries == null) {
                entries = new double[n][free.length];
                jacobian(at, 1, entries);
            }
            return entries;
        }

        @Override
        public int getRowDimension() {
            return n;
        }

        @Override
        public int getColumnDimension() {
            return free.length;
        }

        @Override
        public double getEntry(int row, int column) {
            return entries()[row][column];
        }

        @Override
        public RealMatrix copy() {
            return new Array2DRowRealMatrix(entries());
        }

        @Override
        public RealMatrix createMatrix(int rows, int columns) {
            return new Array2DRowRealMatrix(rows, columns);
        }

        @Override
        public void setEntry(int row, int column, double value) {
            throw new UnsupportedOperationException("a Jacobian is read, not written");
        }
    }

    /**
     * d·J in the problem's scratch: {@code getData} hands the array itself, not a copy, because the optimiser takes
     * it to overwrite with its QR decomposition and is done with it before it asks for the next Jacobian.
     */
    private static final class Scratch extends Array2DRowRealMatrix {

        Scratch(double[][] data) {
            super(data, false);
        }

        @Override
        public double[][] getData() {
            return getDataRef();
        }
    }

    /** One point the optimiser tried: its residuals at once, its Jacobian when asked for. */
    private final class At implements Evaluation {

        private final double[] x;
        private final double[] theta;
        private final RealVector residuals;

        At(double[] x) {
            this.x = x;
            this.theta = theta(x);
            double[] r = new double[n];
            int row = 0;
            for (int m = 0; m < models.size(); m++) {
                double[] t = points.get(m).timeUs();
                double[] value = values[m];
                models.get(m).timesUs(points.get(m).bytes(), theta, value, pieces[m]);
                for (int i = 0; i < t.length; i++, row++) {
                    // target − value, as the builder's evaluation subtracts them
                    r[row] = 1.0 - value[i] / t[i];
                }
            }
            this.residuals = new ArrayRealVector(r, false);
            piecesOf = this;
        }

        @Override
        public RealMatrix getJacobian() {
            return new Jacobian(this);
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
            RealMatrix j = new Jacobian(this).copy();
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
