package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierParam;
import java.util.Map;
import org.ncclharness.calibration.measure.InputException;

/**
 * The search box: one {@link ParamRange} per parameter. The grid enumerates its points; the fitter searches
 * the same box as a continuum, so the two answer the same question.
 *
 * <p>The grid's axes are u_NV, β_IB, ℓ_nv, ℓ_ib, T_sw: the per-hop latencies ℓ, not the per-configuration α.
 * At one configuration the two are the same axis rescaled (α_nv = 2(g−1)·hops·ℓ_nv), so nothing is lost; across
 * configurations only ℓ is shared, so the same grid also scores a joint set of runs.
 */
public record ParamRanges(ParamRange uNv, ParamRange betaIbGBps, ParamRange ellNvUs, ParamRange ellIbUs,
                          ParamRange tSwUs) {

    public ParamRanges {
        uNv.checked(TwoTierParam.U_NV, "range");
        betaIbGBps.checked(TwoTierParam.BETA_IB, "range");
        ellNvUs.checked(TwoTierParam.ELL_NV, "range");
        ellIbUs.checked(TwoTierParam.ELL_IB, "range");
        tSwUs.checked(TwoTierParam.T_SW, "range");
    }

    public ParamRange get(TwoTierParam p) {
        return switch (p) {
            case U_NV -> uNv;
            case BETA_IB -> betaIbGBps;
            case ELL_NV -> ellNvUs;
            case ELL_IB -> ellIbUs;
            case T_SW -> tSwUs;
        };
    }

    /** Combinations the grid scores: the product of the points per axis. */
    public long combinations() {
        long c = 1;
        for (TwoTierParam p : TwoTierParam.values()) {
            if (c > Long.MAX_VALUE / get(p).points()) {
                throw new InputException("range", 0, "the grid's points per axis multiply to more than "
                        + Long.MAX_VALUE + " combinations; use fewer points");
            }
            c *= get(p).points();
        }
        return c;
    }

    /** The same box with {@code points} per axis. */
    public ParamRanges withPoints(int points) {
        return new ParamRanges(re(uNv, points), re(betaIbGBps, points), re(ellNvUs, points), re(ellIbUs, points),
                re(tSwUs, points));
    }

    /** The same box with some ranges replaced (e.g. from flags); the others are kept. */
    public ParamRanges with(Map<TwoTierParam, ParamRange> overrides) {
        return new ParamRanges(pick(overrides, TwoTierParam.U_NV), pick(overrides, TwoTierParam.BETA_IB),
                pick(overrides, TwoTierParam.ELL_NV), pick(overrides, TwoTierParam.ELL_IB),
                pick(overrides, TwoTierParam.T_SW));
    }

    /**
     * A box every physically possible answer for this data lies in, at {@code points} per axis: each latency
     * term alone cannot exceed the smallest measured time, and each bandwidth term alone cannot exceed the
     * largest (the floors below use the hierarchical terms, the smaller of the two forms', so the box holds
     * either form's answer). u_NV stops at 1, the datasheet: a ring moves no more than its links carry (where the
     * data alone need more, an NVLS run, it spans 2× its floor and is flagged elsewhere; a caller can widen it; at
     * 2× its floor wherever that passed 1, the qoofyk NDR 2-node run's u_NV was 1.946); β_IB spans 100× above its
     * floor, since an NVLink-bound run says little about it ({@link #withBetaIbAtMost} holds it under the network).
     */
    public static ParamRanges defaultsFor(TwoTierProblem p, int points) {
        if (points < 2) {
            throw new InputException("range", 0, points + " points per axis; the default box needs at least 2");
        }
        double tMin = p.minMeasuredUs();
        double uFloor = 1e-3;
        double betaFloor = 1e-3;
        double latNv = 0;
        double latIb = 0;
        for (int i = 0; i < p.points; i++) {
            uFloor = Math.max(uFloor, p.hierNv[i] * p.invMeasured[i]);
            betaFloor = Math.max(betaFloor, p.hierIb[i] * p.invMeasured[i]);
            latNv = Math.max(latNv, p.latNv[i]);
            latIb = Math.max(latIb, p.latIb[i]);
        }
        return new ParamRanges(
                new ParamRange(uFloor, uFloor < 1 ? 1 : 2 * uFloor, points),
                new ParamRange(betaFloor, 100 * betaFloor, points),
                new ParamRange(0, tMin / Math.max(latNv, 1), points),
                new ParamRange(0, tMin / Math.max(latIb, 1), points),
                new ParamRange(0, tMin, points));
    }

    /**
     * This box with β_IB at most {@code maxGBps}, a domain's NICs together where no measured size passed them
     * ({@code fit.envelope.BandwidthCeiling}: a ring crosses each boundary with all of a domain's NICs, so β_IB per
     * domain cannot exceed them); unchanged for null or a ceiling outside the box (at or below its floor the data
     * themselves need more).
     */
    public ParamRanges withBetaIbAtMost(Double maxGBps) {
        if (maxGBps == null || maxGBps <= betaIbGBps.min() || maxGBps >= betaIbGBps.max()) {
            return this;
        }
        return new ParamRanges(uNv, new ParamRange(betaIbGBps.min(), maxGBps, betaIbGBps.points()), ellNvUs, ellIbUs,
                tSwUs);
    }

    private static ParamRange re(ParamRange r, int points) {
        return new ParamRange(r.min(), r.max(), points);
    }

    private ParamRange pick(Map<TwoTierParam, ParamRange> o, TwoTierParam p) {
        return o.getOrDefault(p, get(p));
    }
}
