package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.IntStream;
import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.analysis.solvers.AllowedSolution;
import org.apache.commons.math3.analysis.solvers.BracketingNthOrderBrentSolver;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.Rmspe;

/**
 * The exact two-tier fit: the minimum-RMSPE parameters in the search box, found without enumerating it.
 *
 * <h2>Why it can be exact and fast</h2>
 * In x = 1/u_NV, y = 1/β_IB the model is linear: T_i = T_sw + a_i·ℓ_nv + b_i·ℓ_ib + c_i·x + d_i·y (the
 * latency terms add, the slopes combine), and the relative error (T_i − m_i)/m_i is linear too, so minimising
 * RMSPE is a least-squares problem in five variables, and the grid's box becomes a box in (x, y, ℓ, T_sw).
 * {@link BoxLeastSquares} solves it exactly: at most 243 faces of 5×5 normal equations (Commons Math), instead of R⁵
 * combinations. The flat ring's min(u_NV·β_NV, β_IB) splits the space into two convex regions (NVLink the
 * bottleneck, or the inter-domain link); each is solved and the better kept. The answer is never worse than the
 * grid's best, because every grid point lies in the box being minimised over.
 *
 * <h2>What one configuration can and cannot identify</h2>
 * At one d × g every point has the same a, b (latency coefficients) and c_i ∝ d_i ∝ M_i: T(M) is a straight
 * line in M. Two numbers are pinned down, the intercept T_sw + α_nv + α_ib and the slope (the large-message
 * bus bandwidth; both in {@link ConfigSummary}), and nothing else: T_sw, ℓ_nv and ℓ_ib trade off freely along
 * the intercept, u_NV and β_IB along the slope. The grid's "best" among them is an arbitrary point of that flat
 * valley, decided by the grid spacing. The fitter says so: the rank of the design (SVD) marks each parameter
 * the data do not separate as {@link Identifiability#UNDETERMINED}, and each parameter's profile (the range
 * over which RMSPE stays within 1 % of its minimum, the other four re-fitted) shows how far the valley runs.
 * Exceptions fall out of the same algebra: a single-domain run (d = 1) has no inter-domain term, so u_NV is
 * identified (and β_IB, ℓ_ib are not, they do nothing); large messages only leave the latencies unbounded.
 *
 * <h2>What makes them identifiable</h2>
 * Runs of the same hardware at several configurations, fitted jointly (one {@link TwoTierProblem} of several
 * runs): the coefficients 2(g−1)·hops, 2(d−1), (2(g−1)/g) and (2(d−1)/d) then differ between points, and the
 * columns separate once the configurations vary enough (T_sw needs ℓ_nv's coefficient to vary, i.e. at least
 * two values of g, or a prior on ℓ_nv; u_NV and β_IB need two different (g−1)/g : (d−1)/d ratios, or a
 * single-domain run). Where they do not, a {@link Prior} from the single-domain calibration of the same GPU
 * class (u_NV, ℓ_nv) fills in; the profile then says which parameters rest on the prior.
 */
public final class TwoTierFitter {

    /** A profile holds values whose best RMSPE is within 1 % of the minimum... */
    public static final double PROFILE_RELATIVE = 0.01;
    /** ...or within 0.001 percentage points of it, so that noise-free data do not give zero-width profiles. */
    public static final double PROFILE_ABSOLUTE_PCT = 1e-3;
    /** Leave-one-out needs 3k + 3 points for k = 5 parameters (docs/calibration.md). */
    public static final int LOO_MIN_POINTS = 18;

    /** Profile ends to 2⁻²⁴ of the search range: beyond the four digits a report prints. */
    private static final double EDGE_ACCURACY = 0x1p-24;
    /** Brent settles in about ten solves; this many means the profile is not the convex curve it must be. */
    private static final int EDGE_EVALUATIONS = 100;
    private static final double NOISE_FLOOR = 1e-3;
    private static final double NULL_SINGULAR = 1e-8;
    private static final double NULL_COMPONENT = 1e-6;
    private static final int X = TwoTierParam.U_NV.ordinal();
    private static final int Y = TwoTierParam.BETA_IB.ordinal();

    private TwoTierFitter() {
    }

    /** The best parameters in the box and their RMSPE: the part the benchmark races against the grid. */
    public static FastResult best(TwoTierProblem p, TwoTierForm form, ParamRanges box) {
        long start = System.nanoTime();
        Linear lin = new Linear(p, form, box, List.of(), 1.0);
        Candidate c = lin.solve(lin.lo, lin.hi);
        TwoTierParams params = lin.natural(c.theta);
        Rmspe rmspe = p.rmspe(form, params);
        return new FastResult(form, params, rmspe, c.faces, (System.nanoTime() - start) / 1e9);
    }

    /** The fit with profiles, identifiability and configuration summaries; no priors. */
    public static TwoTierFit fit(TwoTierProblem p, TwoTierForm form, ParamRanges box) {
        return fit(p, form, box, List.of());
    }

    public static TwoTierFit fit(TwoTierProblem p, TwoTierForm form, ParamRanges box, List<Prior> priors) {
        return inSample(p, form, box, priors).scored();
    }

    /**
     * The fit with profiles, identifiability and configuration summaries, its leave-one-out still to come
     * ({@link Unscored#scored}).
     */
    public static Unscored inSample(TwoTierProblem p, TwoTierForm form, ParamRanges box, List<Prior> priors) {
        Solved s = Solved.of(p, form, box, priors);
        Linear lin = s.lin();
        Candidate c = s.best();
        TwoTierParams params = lin.natural(c.theta);
        boolean[] withPrior = priors.isEmpty() ? s.dataOnly() : lin.identified(c.objective);
        List<ParamProfile> profiles = new ArrayList<>();
        for (TwoTierParam q : TwoTierParam.values()) {
            profiles.add(lin.profile(q, c, withPrior[q.ordinal()], withPrior[q.ordinal()] && !s.dataOnly()[q.ordinal()]));
        }
        List<ConfigSummary> configs = new ArrayList<>();
        for (TwoTierConfig cfg : p.configurations()) {
            double anv = params.alphaNvUs(cfg, p.hops());
            double aib = params.alphaIbUs(cfg);
            configs.add(new ConfigSummary(cfg, anv, aib, params.tSwUs(), params.tSwUs() + anv + aib,
                    TwoTierModel.busBwAsymptoteGBps(form, cfg, p.betaNvGBps(), params)));
        }
        String bottleneck = form == TwoTierForm.HIERARCHICAL ? null : lin.bottleneck(c, withPrior[X]);
        return new Unscored(new TwoTierFit(form, params, p.rmspe(form, params), OptionalDouble.empty(), profiles,
                configs, priors, bottleneck, notes(p, profiles), c.faces), lin);
    }

    /**
     * A fit whose leave-one-out is still to come, with the problem it was solved on: {@link #scored} refits that
     * problem without each point, or the caller leaves it unscored (a fit with the points for one and none is
     * {@link TwoTierFit#leaveOneOutSkipped}).
     */
    public static final class Unscored {
        private final TwoTierFit fit;
        private final Linear lin;

        private Unscored(TwoTierFit fit, Linear lin) {
            this.fit = fit;
            this.lin = lin;
        }

        /** The fit, no leave-one-out. */
        public TwoTierFit fit() {
            return fit;
        }

        /** The fit with its leave-one-out RMSPE (empty below {@link #LOO_MIN_POINTS} points). */
        public TwoTierFit scored() {
            return fit.withLeaveOneOut(lin.leaveOneOut());
        }
    }

    /**
     * The problem of a form in a box, solved: on the data alone, then with the priors weighted by the data's noise
     * where there are any ({@code lin} and {@code best} the latter), and which parameters the data alone determine.
     */
    private record Solved(Linear lin, Candidate best, boolean[] dataOnly) {
        static Solved of(TwoTierProblem p, TwoTierForm form, ParamRanges box, List<Prior> priors) {
            Linear plain = new Linear(p, form, box, List.of(), 1.0);
            Candidate plainBest = plain.solve(plain.lo, plain.hi);
            boolean[] dataOnly = plain.identified(plainBest.objective);
            if (priors.isEmpty()) {
                return new Solved(plain, plainBest, dataOnly);
            }
            double noise = Math.max(Math.sqrt(plainBest.objective / p.points), NOISE_FLOOR);
            Linear lin = new Linear(p, form, box, priors, noise);
            return new Solved(lin, lin.solve(lin.lo, lin.hi), dataOnly);
        }
    }

    /** What a reader must know before trusting the numbers. */
    private static List<String> notes(TwoTierProblem p, List<ParamProfile> profiles) {
        List<String> notes = new ArrayList<>();
        ParamProfile u = profiles.get(X);
        if (u.value() > 1 && u.status() != Identifiability.UNDETERMINED) {
            notes.add(String.format(Locale.ROOT, "u_NV = %.3f > 1: the data move more than the physical NVLink"
                    + " bandwidth (%.0f GB/s) allows; in-network reduction (NVLS) or a wrong fabric; the ring model"
                    + " cannot represent it", u.value(), p.betaNvGBps()));
        }
        if (p.points <= TwoTierParam.values().length) {
            // within its bounds the fit may still miss some points, so the note claims no exact pass
            notes.add(p.points + " points for " + TwoTierParam.values().length + " parameters: the fit can bend to"
                    + " every point, so its RMSPE says nothing of prediction; trust only what is marked determined");
        }
        return notes;
    }


    /**
     * The form the data support better: lower leave-one-out RMSPE where both have one, else in-sample. Empty when
     * the two are within {@link #PROFILE_RELATIVE} of each other: the data do not tell them apart (always the
     * case at one configuration, where both forms are the same straight line in M).
     */
    public static Optional<TwoTierFit> better(List<TwoTierFit> fits) {
        List<TwoTierFit> sorted = fits.stream().sorted(Comparator.comparingDouble(TwoTierFit::comparisonPct)).toList();
        if (sorted.size() > 1
                && sorted.get(1).comparisonPct() <= sorted.get(0).comparisonPct() * (1 + PROFILE_RELATIVE)) {
            return Optional.empty();
        }
        return Optional.of(sorted.get(0));
    }

    /** Which linear model a candidate comes from. */
    private enum Region { HIERARCHICAL, NV_BOUND, IB_BOUND }

    private record Candidate(double[] theta, double objective, Region region, int faces) {
    }

    /**
     * The problem in linear variables θ = (x = 1/u_NV, y = 1/β_IB, ℓ_nv, ℓ_ib, T_sw) — the {@link TwoTierParam}
     * order — with rows scaled by 1/m_i so that the residual is the relative error, and prior rows appended.
     */
    private static final class Linear {
        final TwoTierProblem p;
        final TwoTierForm form;
        final double[] lo = new double[5];
        final double[] hi = new double[5];
        final double betaNv;
        final double[][] hier;
        final double[][] nvBound;
        final double[][] ibBound;
        final double[] target;
        final int dataRows;

        Linear(TwoTierProblem p, TwoTierForm form, ParamRanges box, List<Prior> priors, double noise) {
            this.p = p;
            this.form = form;
            this.betaNv = p.betaNvGBps();
            lo[X] = 1 / box.uNv().max();
            hi[X] = 1 / box.uNv().min();
            lo[Y] = 1 / box.betaIbGBps().max();
            hi[Y] = 1 / box.betaIbGBps().min();
            for (TwoTierParam q : List.of(TwoTierParam.ELL_NV, TwoTierParam.ELL_IB, TwoTierParam.T_SW)) {
                lo[q.ordinal()] = box.get(q).min();
                hi[q.ordinal()] = box.get(q).max();
            }
            dataRows = p.points;
            int rows = p.points + priors.size();
            hier = new double[rows][];
            nvBound = new double[rows][];
            ibBound = new double[rows][];
            target = new double[rows];
            for (int i = 0; i < p.points; i++) {
                double w = p.invMeasured[i];
                double ring = p.ring[i] * w;
                hier[i] = row(p.hierNv[i] * w, p.hierIb[i] * w, p.latNv[i] * w, p.latIb[i] * w, w);
                nvBound[i] = row(ring / betaNv, 0, p.latNv[i] * w, p.latIb[i] * w, w);
                ibBound[i] = p.multiDomain[i] ? row(0, ring, p.latNv[i] * w, p.latIb[i] * w, w)
                        : row(ring / betaNv, 0, p.latNv[i] * w, p.latIb[i] * w, w);
                target[i] = 1;
            }
            for (int k = 0; k < priors.size(); k++) {
                Prior pr = priors.get(k);
                int j = pr.param().ordinal();
                boolean inverse = j == X || j == Y;
                double value = inverse ? 1 / pr.value() : pr.value();
                double sigma = inverse ? pr.sigma() / (pr.value() * pr.value()) : pr.sigma();
                double[] r = new double[5];
                r[j] = noise / sigma;
                int at = p.points + k;
                hier[at] = r;
                nvBound[at] = r;
                ibBound[at] = r;
                target[at] = noise * value / sigma;
            }
        }

        private static double[] row(double x, double y, double lnv, double lib, double tsw) {
            return new double[] {x, y, lnv, lib, tsw};
        }

        TwoTierParams natural(double[] t) {
            return new TwoTierParams(1 / t[X], 1 / t[Y], t[TwoTierParam.ELL_NV.ordinal()],
                    t[TwoTierParam.ELL_IB.ordinal()], t[TwoTierParam.T_SW.ordinal()]);
        }

        Candidate solve(double[] l, double[] h) {
            return solve(l, h, hier, nvBound, ibBound, target);
        }

        /** The minimum over the box [l, h] of the given rows (all rows, or all but one for leave-one-out). */
        Candidate solve(double[] l, double[] h, double[][] hr, double[][] nr, double[][] ir, double[] t) {
            List<Candidate> all = regions(l, h, hr, nr, ir, t);
            Candidate win = all.get(0);
            int faces = 0;
            for (Candidate c : all) {
                faces += c.faces;
                if (c.objective < win.objective) {
                    win = c;
                }
            }
            return new Candidate(win.theta, win.objective, win.region, faces);
        }

        /** The optimum of each convex region: one for the hierarchical form, one or two for the flat ring. */
        List<Candidate> regions(double[] l, double[] h, double[][] hr, double[][] nr, double[][] ir, double[] t) {
            if (form == TwoTierForm.HIERARCHICAL) {
                BoxLeastSquares.Solution s = BoxLeastSquares.solve(hr, t, l, h, th -> true);
                return List.of(new Candidate(s.theta(), s.objective(), Region.HIERARCHICAL, s.facesSolved()));
            }
            List<Candidate> out = new ArrayList<>(2);
            // NVLink the bottleneck: x/β_NV ≥ y, so x ≥ y_lo·β_NV; y does nothing and is reported at the
            // least it can be, β_IB = u_NV·β_NV.
            double[] nl = l.clone();
            nl[X] = Math.max(l[X], l[Y] * betaNv);
            if (nl[X] <= h[X]) {
                BoxLeastSquares.Solution s = BoxLeastSquares.solve(nr, t, nl, h,
                        th -> th[Y] <= th[X] / betaNv * (1 + 1e-12));
                if (s != null) {
                    double[] th = s.theta();
                    th[Y] = Math.min(h[Y], Math.max(l[Y], th[X] / betaNv));
                    out.add(new Candidate(th, s.objective(), Region.NV_BOUND, s.facesSolved()));
                }
            }
            // The inter-domain link the bottleneck: x/β_NV ≤ y. A box optimum that breaks it has its region
            // optimum on x/β_NV = y, which the NVLink-bound region already holds.
            BoxLeastSquares.Solution s = BoxLeastSquares.solve(ir, t, l, h,
                    th -> th[X] / betaNv <= th[Y] * (1 + 1e-12));
            if (s != null) {
                out.add(new Candidate(s.theta(), s.objective(), Region.IB_BOUND, s.facesSolved()));
            }
            if (out.isEmpty()) {
                throw new IllegalStateException("flat-ring fit found no feasible point in the box");
            }
            return out;
        }

        /**
         * The flat ring's limiting link. When only one region fits within the profile tolerance, that one. When
         * both do, the data cannot tell "inter-domain exactly as fast as NVLink" from "faster": it is NVLink if
         * u_NV is pinned (single-domain runs show the same slope), else undetermined (one configuration).
         */
        String bottleneck(Candidate best, boolean uIdentified) {
            double thr = threshold(scorePct(best.objective));
            List<Region> attaining = regions(lo, hi, hier, nvBound, ibBound, target).stream()
                    .filter(c -> scorePct(c.objective) <= thr).map(Candidate::region).toList();
            if (attaining.size() == 1) {
                return attaining.get(0) == Region.NV_BOUND ? "nvlink" : "inter-domain";
            }
            return uIdentified ? "nvlink" : "undetermined";
        }

        static double threshold(double minPct) {
            return Math.max(minPct * (1 + PROFILE_RELATIVE), minPct + PROFILE_ABSOLUTE_PCT);
        }

        double scorePct(double objective) {
            return Math.sqrt(objective / dataRows) * 100;
        }

        /**
         * Structural identifiability: a parameter is identified when, in every region whose optimum is within
         * the profile tolerance of the best (for the flat ring both may be: the data need not say which link is
         * the bottleneck), no direction of the column-normalised design's null space moves it.
         */
        boolean[] identified(double bestObjective) {
            double thr = threshold(scorePct(bestObjective));
            boolean[] out = {true, true, true, true, true};
            for (Candidate c : regions(lo, hi, hier, nvBound, ibBound, target)) {
                if (scorePct(c.objective) <= thr) {
                    boolean[] r = identifiedIn(c.region);
                    for (int j = 0; j < 5; j++) {
                        out[j] &= r[j];
                    }
                }
            }
            return out;
        }

        private boolean[] identifiedIn(Region region) {
            double[][] rows = switch (region) {
                case HIERARCHICAL -> hier;
                case NV_BOUND -> nvBound;
                case IB_BOUND -> ibBound;
            };
            int n = rows.length;
            double[] norm = new double[5];
            for (int r = 0; r < n; r++) {
                for (int j = 0; j < 5; j++) {
                    norm[j] += rows[r][j] * rows[r][j];
                }
            }
            boolean[] out = new boolean[5];
            // A variable held at one value is known, not fitted: it takes no part in the rank.
            int[] cols = IntStream.range(0, 5).filter(j -> norm[j] > 0 && lo[j] < hi[j]).toArray();
            if (cols.length == 0) {
                return out;
            }
            double[][] a = new double[Math.max(n, cols.length)][cols.length];
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < cols.length; c++) {
                    a[r][c] = rows[r][cols[c]] / Math.sqrt(norm[cols[c]]);
                }
            }
            SingularValueDecomposition svd = new SingularValueDecomposition(MatrixUtils.createRealMatrix(a));
            double[] sv = svd.getSingularValues();
            RealMatrix v = svd.getV();
            for (int c = 0; c < cols.length; c++) {
                double nullPart = 0;
                for (int k = 0; k < sv.length; k++) {
                    if (sv[k] <= NULL_SINGULAR * sv[0]) {
                        nullPart += v.getEntry(c, k) * v.getEntry(c, k);
                    }
                }
                out[cols[c]] = nullPart <= NULL_COMPONENT;
            }
            return out;
        }

        ParamProfile profile(TwoTierParam q, Candidate best, boolean structural, boolean needsPrior) {
            int j = q.ordinal();
            double thr = threshold(scorePct(best.objective));
            double at = best.theta[j];
            double down = edge(j, at, lo[j], thr);
            double up = edge(j, at, hi[j], thr);
            boolean touchLo = down == lo[j];
            boolean touchHi = up == hi[j];
            boolean inverse = j == X || j == Y;
            double value = inverse ? 1 / at : at;
            double lowest = inverse ? 1 / up : down;
            double highest = inverse ? 1 / down : up;
            boolean touchesMin = inverse ? touchHi : touchLo;
            boolean touchesMax = inverse ? touchLo : touchHi;
            Identifiability status;
            if (lo[j] == hi[j]) {
                status = Identifiability.FIXED;
            } else if (!structural || (touchLo && touchHi)) {
                status = Identifiability.UNDETERMINED;
            } else if (touchLo || touchHi) {
                status = Identifiability.BOUNDED;
            } else {
                status = Identifiability.DETERMINED;
            }
            return new ParamProfile(q, value, lowest, highest, touchesMin, touchesMax, status, needsPrior);
        }

        /**
         * The farthest value from {@code at} toward {@code bound} whose profile score stays ≤ thr. The score is
         * convex in the held value (a partial minimum of a convex problem), so it crosses thr once on the way:
         * Commons Math's bracketing Brent solver finds the crossing in about ten solves, and BELOW_SIDE keeps the
         * answer on the side whose score is within thr.
         */
        private double edge(int j, double at, double bound, double thr) {
            if (bound == at || profileScore(j, bound) <= thr) {
                return bound;
            }
            UnivariateFunction excess = v -> profileScore(j, v) - thr;
            BracketingNthOrderBrentSolver solver = new BracketingNthOrderBrentSolver(0,
                    Math.abs(bound - at) * EDGE_ACCURACY, 0, 2);
            return solver.solve(EDGE_EVALUATIONS, excess, Math.min(at, bound), Math.max(at, bound),
                    AllowedSolution.BELOW_SIDE);
        }

        private double profileScore(int j, double value) {
            double[] l = lo.clone();
            double[] h = hi.clone();
            l[j] = value;
            h[j] = value;
            return scorePct(solve(l, h).objective);
        }

        /** Each data point predicted by a fit to the others; empty below {@link #LOO_MIN_POINTS}. */
        OptionalDouble leaveOneOut() {
            int n = dataRows;
            if (n < LOO_MIN_POINTS) {
                return OptionalDouble.empty();
            }
            int rows = target.length;
            double sum = 0;
            if (n > Fitter.EXACT_LEAVE_ONE_OUT_MAX) {
                // as the single-tier fits do: interleaved folds instead of n refits of n rows
                for (int f = 0; f < Fitter.FOLDS; f++) {
                    int fold = f;
                    java.util.function.IntPredicate kept = i -> i >= n || i % Fitter.FOLDS != fold;
                    int keptData = n - (int) java.util.stream.IntStream.range(0, n).filter(i -> !kept.test(i)).count();
                    double[] t = new double[keptData + rows - n];
                    Arrays.fill(t, 0, keptData, 1.0);
                    System.arraycopy(target, n, t, keptData, rows - n);
                    Candidate c = solve(lo, hi, keep(hier, kept), keep(nvBound, kept), keep(ibBound, kept), t);
                    double[] predicted = p.predictUs(form, natural(c.theta));
                    for (int i = fold; i < n; i += Fitter.FOLDS) {
                        double rel = predicted[i] / p.measuredUs[i] - 1;
                        sum += rel * rel;
                    }
                }
                return OptionalDouble.of(Math.sqrt(sum / n) * 100);
            }
            // the refits are independent (each reads the rows, none writes): on all cores, summed in order
            double[] squared = IntStream.range(0, n).parallel().mapToDouble(out -> {
                double[] t = new double[rows - 1];
                Arrays.fill(t, 0, n - 1, 1.0);
                System.arraycopy(target, n, t, n - 1, rows - n);
                Candidate c = solve(lo, hi, drop(hier, out), drop(nvBound, out), drop(ibBound, out), t);
                double rel = p.predictUs(form, natural(c.theta))[out] / p.measuredUs[out] - 1;
                return rel * rel;
            }).toArray();
            for (double sq : squared) {
                sum += sq;
            }
            return OptionalDouble.of(Math.sqrt(sum / n) * 100);
        }

        private static double[][] keep(double[][] rows, java.util.function.IntPredicate kept) {
            return java.util.stream.IntStream.range(0, rows.length).filter(kept).mapToObj(i -> rows[i])
                    .toArray(double[][]::new);
        }

        private static double[][] drop(double[][] rows, int out) {
            double[][] r = new double[rows.length - 1][];
            for (int i = 0, k = 0; i < rows.length; i++) {
                if (i != out) {
                    r[k++] = rows[i];
                }
            }
            return r;
        }
    }
}
