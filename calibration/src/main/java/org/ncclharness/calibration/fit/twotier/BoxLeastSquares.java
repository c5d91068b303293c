package org.ncclharness.calibration.fit.twotier;

import java.util.function.Predicate;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.DecompositionSolver;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealVector;

/**
 * Exact least squares with box bounds for a handful of variables: minimise Σ_r (Σ_j a_rj·θ_j − t_r)² over
 * lo ≤ θ ≤ hi. The problem is convex, so its minimum lies in the relative interior of some face of the box,
 * where it is the unconstrained minimum over the face's free variables. With k ≤ 5 variables there are at most
 * 3^k = 243 faces (each variable free, at its lower or at its upper bound); each is one k×k solve of the
 * (unit-diagonal scaled) normal equations (Commons Math's LU). A face whose free columns are linearly dependent is skipped: the
 * minimisers there form a flat set whose corners are minimisers of smaller faces, which are enumerated too.
 * The answer is deterministic: faces are visited in a fixed order and only a strictly lower value replaces
 * the best.
 *
 * <p>An extra acceptance test ({@code feasible}) may reject candidates; the caller must then know that the
 * optimum it wants is still at a face corner (see the flat-ring regions in {@link TwoTierFitter}).
 */
final class BoxLeastSquares {

    /** Pivots below this (on the unit-diagonal scaled normal matrix) mean dependent columns. */
    private static final double PIVOT = 1e-11;

    record Solution(double[] theta, double objective, int facesSolved) {
    }

    private BoxLeastSquares() {
    }

    /**
     * @param a        rows × k design
     * @param t        targets, one per row
     * @return the minimiser, or null when no face passes {@code feasible}
     */
    static Solution solve(double[][] a, double[] t, double[] lo, double[] hi, Predicate<double[]> feasible) {
        int k = lo.length;
        double[][] g = new double[k][k];
        double[] h = new double[k];
        for (int r = 0; r < a.length; r++) {
            double[] row = a[r];
            for (int i = 0; i < k; i++) {
                h[i] += row[i] * t[r];
                for (int j = 0; j <= i; j++) {
                    g[i][j] += row[i] * row[j];
                }
            }
        }
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < i; j++) {
                g[j][i] = g[i][j];
            }
        }
        int faces = 1;
        for (int i = 0; i < k; i++) {
            faces *= 3;
        }
        double best = Double.POSITIVE_INFINITY;
        double[] bestTheta = null;
        int solved = 0;
        int[] state = new int[k];
        double[] theta = new double[k];
        for (int f = 0; f < faces; f++) {
            int code = f;
            boolean skip = false;
            int free = 0;
            for (int i = 0; i < k; i++) {
                state[i] = code % 3;
                code /= 3;
                boolean fixedRange = lo[i] == hi[i];
                // Free needs a column that does something; the upper bound is a separate face only when it differs.
                if ((state[i] == 0 && (fixedRange || g[i][i] == 0)) || (state[i] == 2 && fixedRange)) {
                    skip = true;
                    break;
                }
                if (state[i] == 0) {
                    free++;
                } else {
                    theta[i] = state[i] == 1 ? lo[i] : hi[i];
                }
            }
            if (skip) {
                continue;
            }
            if (free > 0 && !solveFree(g, h, state, theta, free)) {
                continue;
            }
            solved++;
            if (!inBox(theta, state, lo, hi) || !feasible.test(theta)) {
                continue;
            }
            double obj = objective(a, t, theta);
            if (obj < best) {
                best = obj;
                bestTheta = theta.clone();
            }
        }
        return bestTheta == null ? null : new Solution(bestTheta, best, solved);
    }

    /** Σ_r (a_r·θ − t_r)², summed directly (not from the normal equations, which would cancel near zero). */
    static double objective(double[][] a, double[] t, double[] theta) {
        double s = 0;
        for (int r = 0; r < a.length; r++) {
            double v = -t[r];
            double[] row = a[r];
            for (int j = 0; j < theta.length; j++) {
                v += row[j] * theta[j];
            }
            s += v * v;
        }
        return s;
    }

    private static boolean solveFree(double[][] g, double[] h, int[] state, double[] theta, int free) {
        int[] idx = new int[free];
        for (int i = 0, m = 0; i < state.length; i++) {
            if (state[i] == 0) {
                idx[m++] = i;
            }
        }
        double[][] gs = new double[free][free];
        double[] rhs = new double[free];
        double[] scale = new double[free];
        for (int p = 0; p < free; p++) {
            scale[p] = 1 / Math.sqrt(g[idx[p]][idx[p]]);
        }
        for (int p = 0; p < free; p++) {
            int i = idx[p];
            double r = h[i];
            for (int j = 0; j < state.length; j++) {
                if (state[j] != 0) {
                    r -= g[i][j] * theta[j];
                }
            }
            rhs[p] = r * scale[p];
            for (int q = 0; q < free; q++) {
                gs[p][q] = g[i][idx[q]] * scale[p] * scale[q];
            }
        }
        // LU reports a dependent set of columns as a flag, not an exception: a third of the faces of one
        // configuration's problem are singular, and exceptions would cost more than the solves.
        // gs and rhs are this solve's own: wrapped, not copied (the decomposition copies gs once itself)
        DecompositionSolver solver = new LUDecomposition(new Array2DRowRealMatrix(gs, false), PIVOT).getSolver();
        if (!solver.isNonSingular()) {
            return false;
        }
        RealVector x = solver.solve(new ArrayRealVector(rhs, false));
        for (int p = 0; p < free; p++) {
            theta[idx[p]] = x.getEntry(p) * scale[p];
        }
        return true;
    }

    /** Free variables must land inside their bounds (to rounding; then they are clamped onto them). */
    private static boolean inBox(double[] theta, int[] state, double[] lo, double[] hi) {
        for (int i = 0; i < theta.length; i++) {
            if (state[i] != 0) {
                continue;
            }
            double tol = 1e-12 * Math.max(Math.abs(lo[i]), Math.abs(hi[i]));
            if (!(theta[i] >= lo[i] - tol && theta[i] <= hi[i] + tol)) {
                return false;
            }
            theta[i] = Math.min(hi[i], Math.max(lo[i], theta[i]));
        }
        return true;
    }
}
