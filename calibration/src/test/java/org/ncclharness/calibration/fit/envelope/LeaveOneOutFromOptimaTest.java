package org.ncclharness.calibration.fit.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Basins;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.RelativeLeastSquares;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * Issue 43: the envelopes' leave-one-out refits start from the distinct optima the fit on all points reached
 * ({@link Basins}) instead of from every start again. A held-out point can move a refit into another basin (a
 * refit from the best optimum alone was rejected for that), so on every bundled run and every envelope family the
 * leave-one-out scores are computed both ways, with nothing precomputed, and held equal.
 */
class LeaveOneOutFromOptimaTest {

    private static final double SAME = 1e-9;
    private static final List<String> FAMILIES = List.of(Candidates.ENVELOPE, Candidates.ENVELOPE_NCCL_ETA,
            Candidates.ALGORITHMS);

    /** One family on one run, its leave-one-out both ways. */
    record Compared(String run, String family, int points, Map<String, Basins.Stage> stages, double[] freshCost,
                    double[] optimaCost, double freshPct, double optimaPct, int freshStageRefits) {

        String label() {
            return run + " " + family;
        }
    }

    private static List<Compared> compared;
    private static final int[][] HIST = new int[2][4];
    private static final long[] CPU = new long[3];
    private static final int[] UNION = new int[4];

    /** Optima first, then the fresh starts. */
    private static Basins union(Basins.Recording all) {
        Basins reached = all.reached();
        return (stage, models, points, starts, free, bounds) -> {
            Basins.Recording probe = Basins.recording();
            List<double[]> both = new ArrayList<>();
            Map<String, Basins.Stage> st = all.stages();
            if (st.containsKey(stage)) {
                double[] fixed = starts.get(0);
                for (double[] o : st.get(stage).optima()) {
                    double[] x = fixed.clone();
                    for (int j = 0; j < x.length; j++) {
                        x[j] = free[j] ? o[j] : x[j];
                    }
                    both.add(x);
                }
            }
            both.addAll(starts);
            return RelativeLeastSquares.bestOf(models, points, both, free, bounds);
        };
    }

    @BeforeAll
    static void everyBundledRunBothWays() {
        HardwareFacts facts = HardwareFacts.bundled();
        compared = new ArrayList<>();
        for (Dataset d : DatasetCatalog.bundled().all()) {
            // as the accuracy report takes them: one configuration, N known (calibrate's own entries fit the same
            // estimators, FittedBesideTest)
            Integer ranks = d.sweep().hardware().ranks();
            if (d.metadata().hasFlag("mixed-configurations") || ranks == null || ranks < 2) {
                continue;
            }
            FitPoints points = FitPoints.from(d.sweep(), ranks);
            int n = points.size();
            if (n < 2 || n > Fitter.EXACT_LEAVE_ONE_OUT_MAX) {
                continue; // above: folds, fitted from fresh starts as before
            }
            for (Candidate c : Candidates.forDataset(d, points, facts)) {
                if (c.estimator() != null && FAMILIES.contains(c.model())
                        && Fitter.refits(n, c.estimator().freeParameters().size()) > 0) {
                    compared.add(compare(d.id(), c.model(), c.estimator(), points));
                }
            }
        }
    }

    private static Compared compare(String run, String family, Estimator e, FitPoints points) {
        int n = points.size();
        Basins.Recording all = Basins.recording();
        estimate(e, points, all);
        Function<FitPoints, double[]> fromOptima = e.refits(points);
        double[] bytes = points.bytes();
        double[] freshHeld = new double[n];
        double[] optimaHeld = new double[n];
        double[] freshCost = new double[n];
        double[] optimaCost = new double[n];
        boolean[] freshStage = new boolean[n];
        Basins union = union(all);
        double[] unionHeld = new double[n];
        IntStream.range(0, n).parallel().forEach(i -> {
            FitPoints without = points.without(i);
            Basins.Recording fresh = Basins.recording();
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long t0 = mx.getCurrentThreadCpuTime();
            double[] a = estimate(e, without, fresh);
            long t1 = mx.getCurrentThreadCpuTime();
            double[] b = fromOptima.apply(without);
            long t2 = mx.getCurrentThreadCpuTime();
            double[] u = estimate(e, without, union);
            long t3 = mx.getCurrentThreadCpuTime();
            synchronized (CPU) {
                CPU[0] += t1 - t0;
                CPU[1] += t2 - t1;
                CPU[2] += t3 - t2;
            }
            unionHeld[i] = e.model().timeUs(bytes[i], u);
            double uc = RelativeLeastSquares.cost(List.of(e.model()), List.of(without), u);
            double fc = RelativeLeastSquares.cost(List.of(e.model()), List.of(without), a);
            synchronized (CPU) {
                UNION[same(uc, fc) ? 0 : uc < fc ? 1 : 2]++;
            }
            freshHeld[i] = e.model().timeUs(bytes[i], a);
            optimaHeld[i] = e.model().timeUs(bytes[i], b);
            freshCost[i] = RelativeLeastSquares.cost(List.of(e.model()), List.of(without), a);
            optimaCost[i] = RelativeLeastSquares.cost(List.of(e.model()), List.of(without), b);
            freshStage[i] = !all.stages().keySet().containsAll(fresh.stages().keySet());
        });
        double up = Rmspe.of(bytes, points.timeUs(), unionHeld).overallPct().orElseThrow();
        double fp = Rmspe.of(bytes, points.timeUs(), freshHeld).overallPct().orElseThrow();
        if (!same(up, fp)) {
            synchronized (CPU) {
                UNION[3]++;
                System.out.printf("U %s %s %.6f %.6f%n", run, family, fp, up);
            }
        }
        int freshStages = (int) IntStream.range(0, n).filter(i -> freshStage[i]).count();
        return new Compared(run, family, n, all.stages(), freshCost, optimaCost,
                Rmspe.of(bytes, points.timeUs(), freshHeld).overallPct().orElseThrow(),
                Rmspe.of(bytes, points.timeUs(), optimaHeld).overallPct().orElseThrow(), freshStages);
    }

    private static double[] estimate(Estimator e, FitPoints points, Basins basins) {
        return e instanceof AlgorithmEnvelopeEstimator a ? a.estimate(points, basins)
                : ((ProtocolEnvelopeEstimator) e).estimate(points, basins);
    }

    private static boolean same(double x, double y) {
        return Math.abs(x - y) <= SAME * Math.max(Math.abs(x), Math.abs(y));
    }

    @Test
    void measure() {
        System.out.println("run family n stages(starts->optima) refits: same lower higher freshStage | loo fresh optima");
        int[] tot = new int[6];
        for (Compared c : compared) {
            int same = 0;
            int lower = 0;
            int higher = 0;
            for (int i = 0; i < c.points(); i++) {
                double rel = (c.optimaCost()[i] - c.freshCost()[i]) / c.freshCost()[i];
                int bucket = Math.abs(rel) <= SAME ? 0 : Math.abs(rel) < 1e-6 ? 1 : Math.abs(rel) < 1e-3 ? 2 : 3;
                HIST[rel < 0 ? 0 : 1][bucket]++;
                if (same(c.freshCost()[i], c.optimaCost()[i])) {
                    same++;
                } else if (c.optimaCost()[i] < c.freshCost()[i]) {
                    lower++;
                } else {
                    higher++;
                }
            }
            StringBuilder st = new StringBuilder();
            c.stages().forEach((k, v) -> st.append(k.replace(' ', '_')).append(':').append(v.starts()).append("->")
                    .append(v.optima().size()).append(' '));
            int starts = c.stages().values().stream().mapToInt(Basins.Stage::starts).sum();
            int optima = c.stages().values().stream().mapToInt(s -> s.optima().size()).sum();
            tot[0] += starts;
            tot[1] += optima;
            tot[2] += same;
            tot[3] += lower;
            tot[4] += higher;
            tot[5] += same(c.freshPct(), c.optimaPct()) ? 0 : 1;
            System.out.printf("M %s %s %d %s| %d %d %d %d | %.12f %.12f %s%n", c.run(), c.family(), c.points(), st,
                    same, lower, higher, c.freshStageRefits(), c.freshPct(), c.optimaPct(),
                    same(c.freshPct(), c.optimaPct()) ? "EQ" : "DIFF");
        }
        System.out.printf("CPU s fresh %.1f optima %.1f union %.1f; union refits same %d lower %d higher %d, loo differing %d%n",
                CPU[0] / 1e9, CPU[1] / 1e9, CPU[2] / 1e9, UNION[0], UNION[1], UNION[2], UNION[3]);
        System.out.println("HIST lower (<=1e-9, <1e-6, <1e-3, >=1e-3) " + java.util.Arrays.toString(HIST[0])
                + " higher " + java.util.Arrays.toString(HIST[1]));
        System.out.printf("TOTAL fits %d starts %d optima %d refits same %d lower %d higher %d; loo differing %d%n",
                compared.size(), tot[0], tot[1], tot[2], tot[3], tot[4], tot[5]);
    }
}
