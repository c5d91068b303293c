package org.ncclharness.devtools.twotier;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import org.ncclharness.calibration.fit.twotier.FastResult;
import org.ncclharness.calibration.fit.twotier.GridProgress;
import org.ncclharness.calibration.fit.twotier.GridResult;
import org.ncclharness.calibration.fit.twotier.GridSearch;
import org.ncclharness.calibration.fit.twotier.ParamRange;
import org.ncclharness.calibration.fit.twotier.ParamRanges;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.fit.twotier.TwoTierFitter;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;
import org.ncclharness.calibration.fit.twotier.TwoTierProblem;
import org.ncclharness.calibration.fit.twotier.TwoTierSynthetic;

/**
 * The benchmark of issue 4 (a benchmark, not a timed test): the faithful grid and the exact fitter side by side
 * on the same synthetic two-tier run and the same box, at several points per axis. The grid is timed once per
 * R (after a warm-up search); the fitter, which takes well under a millisecond, is timed as the mean over
 * repeated calls for at least {@link #FAST_MIN_SECONDS} (after a warm-up), so the JIT has compiled both.
 * Run it: {@code java -jar devtools/target/devtools.jar two-tier} ({@link TwoTierBenchCommand}).
 */
public final class TwoTierBench {

    static final double FAST_MIN_SECONDS = 0.5;
    /** The warm-up grid: big enough (R⁵ ≈ 7.5 M) that the JIT compiles the inner loop before timing starts. */
    static final int WARM_UP_POINTS = 14;

    /** Known parameters of the synthetic run: an HGX H100-like pair of nodes over 8 × NDR per node. */
    public static final TwoTierParams TRUTH = new TwoTierParams(0.80, 330, 0.9, 4.0, 12.0);
    public static final TwoTierConfig CONFIG = new TwoTierConfig(2, 8);
    public static final double BETA_NV_GBPS = 450;
    public static final int HOPS = 2;

    /**
     * One R.
     *
     * @param fastSeconds mean wall time of one fitter call
     * @param fastCalls   calls averaged over
     */
    public record Row(int pointsPerAxis, GridResult grid, FastResult fast, double fastSeconds, int fastCalls) {

        public double speedup() {
            return grid.seconds() / fastSeconds;
        }

        /** The fitter's RMSPE is no worse than the grid's (to rounding). */
        public boolean fastNoWorse() {
            return fast.rmspePct() <= grid.rmspePct() * (1 + 1e-12);
        }

        public double fastFacesPerSecond() {
            return fast.facesSolved() / fastSeconds;
        }
    }

    private TwoTierBench() {
    }

    /** The synthetic run the benchmark fits: sizes 1 KiB … 8 GiB, 0.5 % noise, fixed seed. It is a prediction. */
    public static TwoTierProblem syntheticProblem(TwoTierForm form) {
        double[] sizes = TwoTierSynthetic.powersOfTwo(1024, 8L << 30);
        return TwoTierProblem.of(TwoTierSynthetic.run(form, CONFIG, BETA_NV_GBPS, HOPS, TRUTH, sizes, 0.005, 42),
                BETA_NV_GBPS, HOPS);
    }

    /**
     * @param progressFor a progress sink per R (the command line draws a bar); {@link GridProgress#NONE} for none
     */
    public static List<Row> run(TwoTierProblem p, TwoTierForm form, int[] pointsPerAxis, int threads,
                                IntFunction<GridProgress> progressFor) {
        return run(p, form, pointsPerAxis, threads, Map.of(), progressFor);
    }

    /**
     * @param ranges ranges replacing the default box's (their points are replaced by each row's R)
     */
    public static List<Row> run(TwoTierProblem p, TwoTierForm form, int[] pointsPerAxis, int threads,
                                Map<TwoTierParam, ParamRange> ranges, IntFunction<GridProgress> progressFor) {
        ParamRanges warm = box(p, WARM_UP_POINTS, ranges);
        GridSearch.run(p, form, warm, threads, GridProgress.NONE);
        timeFast(p, form, warm);
        List<Row> rows = new ArrayList<>();
        for (int r : pointsPerAxis) {
            ParamRanges box = box(p, r, ranges);
            GridResult grid = GridSearch.run(p, form, box, threads, progressFor.apply(r));
            double[] fastTiming = timeFast(p, form, box);
            FastResult fast = TwoTierFitter.best(p, form, box);
            rows.add(new Row(r, grid, fast, fastTiming[0], (int) fastTiming[1]));
        }
        return rows;
    }

    private static ParamRanges box(TwoTierProblem p, int points, Map<TwoTierParam, ParamRange> ranges) {
        return ParamRanges.defaultsFor(p, points).with(ranges).withPoints(points);
    }

    private static double[] timeFast(TwoTierProblem p, TwoTierForm form, ParamRanges box) {
        int calls = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            TwoTierFitter.best(p, form, box);
            calls++;
            elapsed = System.nanoTime() - start;
        } while (elapsed < FAST_MIN_SECONDS * 1e9);
        return new double[] {elapsed / 1e9 / calls, calls};
    }

    /** The table the benchmark prints, for the synthetic run. */
    public static String format(TwoTierProblem p, TwoTierForm form, int threads, List<Row> rows) {
        return format(form, threads, rows, String.format(Locale.ROOT,
                "synthetic run (a model prediction, not a measurement) %s, %d points, beta_NV %.0f GB/s, hops %d%n"
                        + "# truth u_NV %.2f, beta_IB %.0f GB/s, ell_nv %.2f us, ell_ib %.2f us, T_sw %.1f us; 0.5%%"
                        + " noise", CONFIG.label(), p.points(), BETA_NV_GBPS, HOPS, TRUTH.uNv(), TRUTH.betaIbGBps(),
                TRUTH.ellNvUs(), TRUTH.ellIbUs(), TRUTH.tSwUs()));
    }

    /**
     * The table the benchmark prints.
     *
     * @param data what was fitted, one line (or two, joined by a newline and {@code # })
     */
    public static String format(TwoTierForm form, int threads, List<Row> rows, String data) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "# two-tier benchmark: %s form, %s; grid on %d threads%n", form.id(), data,
                threads));
        sb.append("# grid evals = model evaluations (combinations x points); fast evals = least-squares faces solved\n");
        sb.append(String.format(Locale.ROOT, "%4s %12s %10s %12s %11s | %10s %10s %11s | %9s %s%n", "R",
                "grid combos", "grid s", "grid eval/s", "grid RMSPE", "fast ms", "fast ev/s", "fast RMSPE", "speedup",
                "fast<=grid"));
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "%4d %12d %10.3f %12.3e %10.4f%% | %10.4f %10.3e %10.4f%% | %8.0fx %s%n",
                    r.pointsPerAxis(), r.grid().combinations(), r.grid().seconds(), r.grid().evaluationsPerSecond(),
                    r.grid().rmspePct(), r.fastSeconds() * 1e3, r.fastFacesPerSecond(), r.fast().rmspePct(),
                    r.speedup(), r.fastNoWorse() ? "yes" : "NO"));
        }
        return sb.toString();
    }
}
