package org.ncclharness.calibration.fit;

import java.util.Optional;
import org.ncclharness.calibration.model.SingleTierModel;

/**
 * {@link RelativeLeastSquares}' problem for the single line T(M) = c·ℓ + g(M)·u (u = 1/β, g = f·M/10³), in closed
 * form. The relative error (c·ℓ + g_i·u)/T_i − 1 is linear in (ℓ, u), so the minimum over the free ones solves
 * 2×2 normal equations; leave-one-out solves them less the held-out point's rank-one term (Sherman–Morrison, the
 * hat-matrix identity: no refit). The bounds (ℓ ≥ 0, β ≥ its floor) are honoured exactly by the active-set rule
 * of a convex problem: the optimum is the unconstrained minimum of some face of the box (each bounded variable
 * free or at a bound), so every face is solved and the lowest feasible one kept. A fold whose free optimum leaves
 * the box (its active set differs from the free one) is solved exactly the same way on its own points.
 */
public final class RelativeLine {

    private final double[] p;
    private final double[] q;
    private final double[] sums;
    private final double lMin;
    private final double uMax;

    /** Sums of p², p·q, q², p and q over all points: the normal equations of the target 1. */
    private static final int PP = 0;
    private static final int PQ = 1;
    private static final int QQ = 2;
    private static final int P = 3;
    private static final int Q = 4;

    private RelativeLine(double[] p, double[] q, double lMin, double uMax) {
        this.p = p;
        this.q = q;
        this.lMin = lMin;
        this.uMax = uMax;
        this.sums = new double[5];
        for (int i = 0; i < p.length; i++) {
            add(sums, i, 1);
        }
    }

    /**
     * @param bounds (ℓ, β) bounds: ℓ's floor and β's floor are honoured (β's ceiling is taken as +∞: a line with no
     *               bandwidth term is the one case {@link #fit} reports as empty)
     */
    public static RelativeLine of(SingleTierModel model, FitPoints points, Bounds bounds) {
        double c = model.latencyCoefficient();
        double[] bytes = points.bytes();
        double[] t = points.timeUs();
        double[] p = new double[t.length];
        double[] q = new double[t.length];
        double[] unitBandwidth = {0, 1};
        for (int i = 0; i < t.length; i++) {
            p[i] = c / t[i];
            q[i] = model.timeUs(bytes[i], unitBandwidth) / t[i];
        }
        return new RelativeLine(p, q, bounds.lower()[0], 1 / bounds.lower()[1]);
    }

    /**
     * θ = (ℓ, β) at the minimum over all points.
     *
     * @param latency ℓ where fixed, null where fitted
     * @param beta    β where fixed, null where fitted
     * @return empty where the minimum lies at β = ∞ (times that fall with size: no bandwidth term fits them)
     */
    public Optional<double[]> fit(Double latency, Double beta) {
        return solve(sums, -1, latency, beta);
    }

    /** As {@link #fit} on every point but {@code i}, from the sums less point i's term. */
    public Optional<double[]> fitWithout(int i, Double latency, Double beta) {
        double[] s = sums.clone();
        add(s, i, -1);
        return solve(s, i, latency, beta);
    }

    private void add(double[] s, int i, int sign) {
        s[PP] += sign * p[i] * p[i];
        s[PQ] += sign * p[i] * q[i];
        s[QQ] += sign * q[i] * q[i];
        s[P] += sign * p[i];
        s[Q] += sign * q[i];
    }

    /**
     * The free minimum of the variables fitted where it is feasible (then it is the minimum: convexity); else the
     * lowest feasible minimum of the other faces: ℓ fitted or at its floor, u fitted, at 1/β_floor or at 0 (β = ∞,
     * no finite answer).
     */
    private Optional<double[]> solve(double[] s, int without, Double latency, Double beta) {
        double lFixed = latency == null ? Double.NaN : latency;
        double uFixed = beta == null ? Double.NaN : 1 / beta;
        double[] best = face(s, lFixed, uFixed);
        if (best == null || !feasible(best, latency, beta)) {
            best = null;
            double bestCost = Double.POSITIVE_INFINITY;
            for (double lf : latency != null ? new double[] {lFixed} : new double[] {Double.NaN, lMin}) {
                for (double uf : beta != null ? new double[] {uFixed} : new double[] {Double.NaN, uMax, 0}) {
                    double[] x = Double.isNaN(lf) && Double.isNaN(uf) ? null : face(s, lf, uf);
                    if (x != null && feasible(x, latency, beta) && cost(x, without) < bestCost) {
                        bestCost = cost(x, without);
                        best = x;
                    }
                }
            }
        }
        if (best == null || best[1] == 0) {
            return Optional.empty();
        }
        // a fixed value comes back as given, not through 1/(1/β), which may move it by a rounding
        return Optional.of(new double[] {latency != null ? latency : best[0], beta != null ? beta : 1 / best[1]});
    }

    private boolean feasible(double[] x, Double latency, Double beta) {
        return (latency != null || x[0] >= lMin) && (beta != null || x[1] >= 0 && x[1] <= uMax);
    }

    /** The minimum over the variables given as NaN with the others held; null where it is not unique. */
    private static double[] face(double[] s, double l, double u) {
        boolean lFree = Double.isNaN(l);
        boolean uFree = Double.isNaN(u);
        if (lFree && uFree) {
            double det = s[PP] * s[QQ] - s[PQ] * s[PQ];
            if (!(det > 0)) {
                return null;
            }
            return new double[] {(s[P] * s[QQ] - s[Q] * s[PQ]) / det, (s[Q] * s[PP] - s[P] * s[PQ]) / det};
        }
        if (lFree) {
            return s[PP] > 0 ? new double[] {(s[P] - s[PQ] * u) / s[PP], u} : null;
        }
        if (uFree) {
            return s[QQ] > 0 ? new double[] {l, (s[Q] - s[PQ] * l) / s[QQ]} : null;
        }
        return new double[] {l, u};
    }

    /** Σ((c·ℓ + g_i·u)/T_i − 1)² over the points but {@code without}, summed directly (no cancellation). */
    private double cost(double[] x, int without) {
        double c = 0;
        for (int i = 0; i < p.length; i++) {
            if (i != without) {
                double e = p[i] * x[0] + q[i] * x[1] - 1;
                c += e * e;
            }
        }
        return c;
    }
}
