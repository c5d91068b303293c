package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParams;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * The reference method (docs/two-tier.md), faithfully: enumerate every combination of the five parameters on the
 * user's grid, score each by overall RMSPE against every measured point, keep the best.
 *
 * <p>Written for speed without changing what is computed: the per-point data are flat {@code double[]}s; the
 * work is split by (u_NV, β_IB) pair, each pair's bandwidth terms computed once and the (ℓ_nv, ℓ_ib) latency
 * terms once per pair of those, so the innermost loop is one multiply-add and a square per point and T_sw
 * value; four T_sw values share one pass over the points (four independent sums keep the CPU's pipelines
 * full, and each combination's sum is still taken over the points in order). Every combination is still
 * scored at every point. The best of each (u_NV, β_IB) block is kept, and the blocks are reduced in index
 * order with ties to the lowest index, so the answer is the same to the last digit on 1 thread or 64.
 */
public final class GridSearch {

    private static final int BLOCK = 4;

    private GridSearch() {
    }

    /** On all cores. */
    public static GridResult run(TwoTierProblem p, TwoTierForm form, ParamRanges box, GridProgress progress) {
        return run(p, form, box, Runtime.getRuntime().availableProcessors(), progress);
    }

    public static GridResult run(TwoTierProblem p, TwoTierForm form, ParamRanges box, int threads,
                                 GridProgress progress) {
        double[] u = box.uNv().values();
        double[] beta = box.betaIbGBps().values();
        double[] lnv = box.ellNvUs().values();
        double[] lib = box.ellIbUs().values();
        double[] tsw = box.tSwUs().values();
        int blocks = u.length * beta.length;
        long perBlock = (long) lnv.length * lib.length * tsw.length;
        long total = box.combinations();
        double[] blockBest = new double[blocks];
        long[] blockIndex = new long[blocks];
        AtomicLong done = new AtomicLong();
        long start = System.nanoTime();
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, threads));
        try {
            pool.submit(() -> IntStream.range(0, blocks).parallel().forEach(b -> {
                scoreBlock(p, form, u[b / beta.length], beta[b % beta.length], lnv, lib, tsw, b * perBlock,
                        blockBest, blockIndex, b);
                progress.update(done.addAndGet(perBlock), total);
            })).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("grid search interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("grid search failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdown();
        }
        int win = 0;
        for (int b = 1; b < blocks; b++) {
            if (blockBest[b] < blockBest[win]) {
                win = b;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        TwoTierParams best = decode(blockIndex[win], u, beta, lnv, lib, tsw);
        return new GridResult(form, best, p.rmspe(form, best), blockIndex[win], total,
                Math.multiplyExact(total, (long) p.points), seconds, Math.max(1, threads));
    }

    /** The parameters at an enumeration index (u_NV slowest, T_sw fastest). */
    static TwoTierParams decode(long index, double[] u, double[] beta, double[] lnv, double[] lib, double[] tsw) {
        long r = index;
        int it = (int) (r % tsw.length);
        r /= tsw.length;
        int ic = (int) (r % lib.length);
        r /= lib.length;
        int ia = (int) (r % lnv.length);
        r /= lnv.length;
        int ib = (int) (r % beta.length);
        int iu = (int) (r / beta.length);
        return new TwoTierParams(u[iu], beta[ib], lnv[ia], lib[ic], tsw[it]);
    }

    private static void scoreBlock(TwoTierProblem p, TwoTierForm form, double u, double beta, double[] lnv,
                                   double[] lib, double[] tsw, long firstIndex, double[] bestOut, long[] indexOut,
                                   int slot) {
        int n = p.points;
        double[] w = p.invMeasured;
        double[] bw = new double[n];
        double nv = u * p.betaNvGBps();
        for (int i = 0; i < n; i++) {
            bw[i] = switch (form) {
                case HIERARCHICAL -> p.hierNv[i] / u + p.hierIb[i] / beta;
                case FLAT_RING -> p.ring[i] / (p.multiDomain[i] ? Math.min(nv, beta) : nv);
            };
        }
        double[] q = new double[n];
        double best = Double.POSITIVE_INFINITY;
        long bestIndex = -1;
        long index = firstIndex;
        int nt = tsw.length;
        for (double a : lnv) {
            for (double c : lib) {
                // q_i = (everything but T_sw)/T_meas − 1, so the relative error is T_sw·w_i + q_i.
                for (int i = 0; i < n; i++) {
                    q[i] = (p.latNv[i] * a + p.latIb[i] * c + bw[i]) * w[i] - 1.0;
                }
                int t = 0;
                for (; t + BLOCK <= nt; t += BLOCK) {
                    double t0 = tsw[t];
                    double t1 = tsw[t + 1];
                    double t2 = tsw[t + 2];
                    double t3 = tsw[t + 3];
                    double s0 = 0;
                    double s1 = 0;
                    double s2 = 0;
                    double s3 = 0;
                    for (int i = 0; i < n; i++) {
                        double wi = w[i];
                        double qi = q[i];
                        double r0 = t0 * wi + qi;
                        double r1 = t1 * wi + qi;
                        double r2 = t2 * wi + qi;
                        double r3 = t3 * wi + qi;
                        s0 += r0 * r0;
                        s1 += r1 * r1;
                        s2 += r2 * r2;
                        s3 += r3 * r3;
                    }
                    if (s0 < best) { best = s0; bestIndex = index + t; }
                    if (s1 < best) { best = s1; bestIndex = index + t + 1; }
                    if (s2 < best) { best = s2; bestIndex = index + t + 2; }
                    if (s3 < best) { best = s3; bestIndex = index + t + 3; }
                }
                for (; t < nt; t++) {
                    double tt = tsw[t];
                    double s = 0;
                    for (int i = 0; i < n; i++) {
                        double r = tt * w[i] + q[i];
                        s += r * r;
                    }
                    if (s < best) { best = s; bestIndex = index + t; }
                }
                index += nt;
            }
        }
        bestOut[slot] = best;
        indexOut[slot] = bestIndex;
    }
}
