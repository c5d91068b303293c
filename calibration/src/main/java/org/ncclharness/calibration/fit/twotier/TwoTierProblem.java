package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParams;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.ncclharness.calibration.fit.Rmspe;
import org.ncclharness.calibration.measure.InputException;

/**
 * One or more runs of the same hardware (same β_NV, same hops), pooled into flat per-point arrays: the layout
 * the grid's inner loop and the fitter's normal equations read without boxing. Each point carries the
 * coefficients that multiply the five parameters at its own configuration, so one run and a joint set of runs
 * are the same problem:
 * <pre>
 *   T_i = T_sw + latNv_i·ℓ_nv + latIb_i·ℓ_ib + (hierarchical) hierNv_i/u_NV + hierIb_i/β_IB
 *                                             (flat ring)    ring_i / min(u_NV·β_NV, β_IB)   (β_IB only if d_i > 1)
 * </pre>
 * Every point counts once in the RMSPE, whichever run it comes from.
 */
public final class TwoTierProblem {

    private final List<TwoTierRun> runs;
    private final double betaNvGBps;
    private final int hops;

    final int points;
    final double[] bytes;
    final double[] measuredUs;
    /** 1 / T_meas: the relative error of a prediction p is p·invMeasured − 1. */
    final double[] invMeasured;
    /** 2(g−1)·hops. */
    final double[] latNv;
    /** 2(d−1). */
    final double[] latIb;
    /** (2(g−1)/g)·M/β_NV in µs: the coefficient of 1/u_NV. */
    final double[] hierNv;
    /** (2(d−1)/d)·M in µs·GB/s: the coefficient of 1/β_IB. */
    final double[] hierIb;
    /** (2(N−1)/N)·M in µs·GB/s: the coefficient of 1/min(u_NV·β_NV, β_IB). */
    final double[] ring;
    /** Whether the point's ring crosses domains (d > 1). */
    final boolean[] multiDomain;

    private TwoTierProblem(List<TwoTierRun> runs, double betaNvGBps, int hops) {
        this.runs = List.copyOf(runs);
        this.betaNvGBps = betaNvGBps;
        this.hops = hops;
        int n = runs.stream().mapToInt(TwoTierRun::points).sum();
        points = n;
        bytes = new double[n];
        measuredUs = new double[n];
        invMeasured = new double[n];
        latNv = new double[n];
        latIb = new double[n];
        hierNv = new double[n];
        hierIb = new double[n];
        ring = new double[n];
        multiDomain = new boolean[n];
        int k = 0;
        for (TwoTierRun r : runs) {
            TwoTierConfig c = r.config();
            int g = c.gpusPerDomain();
            int d = c.domains();
            int ranks = c.ranks();
            double[] b = r.bytes();
            double[] t = r.timeUs();
            for (int i = 0; i < b.length; i++, k++) {
                double m = b[i] / TwoTierModel.BYTES_PER_US_PER_GBPS;
                bytes[k] = b[i];
                measuredUs[k] = t[i];
                invMeasured[k] = 1.0 / t[i];
                latNv[k] = c.alphaNvPerEllUs(hops);
                latIb[k] = c.alphaIbPerEllUs();
                hierNv[k] = (2.0 * (g - 1) / g) * m / betaNvGBps;
                hierIb[k] = (2.0 * (d - 1) / d) * m;
                ring[k] = (2.0 * (ranks - 1) / ranks) * m;
                multiDomain[k] = d > 1;
            }
        }
    }

    /**
     * @param betaNvGBps the physical NVLink bandwidth of this hardware (datasheet, unidirectional)
     * @param hops       physical hops per NVLink step (2 through an NVSwitch)
     */
    public static TwoTierProblem of(List<TwoTierRun> runs, double betaNvGBps, int hops) {
        if (runs.isEmpty()) {
            throw new InputException("two-tier fit", 0, "no runs given");
        }
        if (!(betaNvGBps > 0) || !Double.isFinite(betaNvGBps)) {
            throw new InputException("two-tier fit", 0, "beta_NV " + betaNvGBps
                    + " GB/s; the physical NVLink bandwidth must be positive (e.g. 450 for NVLink4)");
        }
        if (hops < 1) {
            throw new InputException("two-tier fit", 0, "hops " + hops + "; at least 1 (2 through an NVSwitch)");
        }
        return new TwoTierProblem(runs, betaNvGBps, hops);
    }

    public static TwoTierProblem of(TwoTierRun run, double betaNvGBps, int hops) {
        return of(List.of(run), betaNvGBps, hops);
    }

    public List<TwoTierRun> runs() {
        return runs;
    }

    public double betaNvGBps() {
        return betaNvGBps;
    }

    public int hops() {
        return hops;
    }

    public int points() {
        return points;
    }

    /** The distinct configurations, in the order the runs first name them. */
    public List<TwoTierConfig> configurations() {
        LinkedHashSet<TwoTierConfig> s = new LinkedHashSet<>();
        runs.forEach(r -> s.add(r.config()));
        return new ArrayList<>(s);
    }

    /** The model's prediction at every point, through {@link TwoTierModel}. */
    public double[] predictUs(TwoTierForm form, TwoTierParams p) {
        double[] out = new double[points];
        int k = 0;
        for (TwoTierRun r : runs) {
            double[] b = r.bytes();
            for (double bi : b) {
                out[k++] = TwoTierModel.timeUs(form, r.config(), betaNvGBps, hops, p, bi);
            }
        }
        return out;
    }

    /** RMSPE of the model against every measured point, overall and per size band. */
    public Rmspe rmspe(TwoTierForm form, TwoTierParams p) {
        return Rmspe.of(bytes, measuredUs, predictUs(form, p));
    }

    double minMeasuredUs() {
        double m = Double.POSITIVE_INFINITY;
        for (double t : measuredUs) {
            m = Math.min(m, t);
        }
        return m;
    }
}
