package org.ncclharness.calibration.model;

/**
 * The two-tier AllReduce time, T(M) in µs for M bytes per rank (formulas on {@link TwoTierForm}). Bandwidths
 * are decimal GB/s, so M / (β·10³) is in µs. This is the one place the formulas are written as formulas; the
 * grid and the fitter work on the same terms laid out per point by {@link TwoTierProblem}, and the tests hold
 * them to this.
 */
public final class TwoTierModel {

    /** Bytes per µs in one GB/s. */
    public static final double BYTES_PER_US_PER_GBPS = 1e3;

    private TwoTierModel() {
    }

    /**
     * @param betaNvGBps physical (datasheet) NVLink bandwidth β_NV
     * @param hops       physical hops per NVLink step (2 through an NVSwitch: GPU → switch → GPU)
     */
    public static double timeUs(TwoTierForm form, TwoTierConfig c, double betaNvGBps, int hops, TwoTierParams p,
                                double bytes) {
        int g = c.gpusPerDomain();
        int d = c.domains();
        int n = c.ranks();
        double latency = p.tSwUs() + p.alphaNvUs(c, hops) + p.alphaIbUs(c);
        double nvGBps = p.uNv() * betaNvGBps;
        double m = bytes / BYTES_PER_US_PER_GBPS;
        return switch (form) {
            case HIERARCHICAL -> latency + (2.0 * (g - 1) / g) * m / nvGBps + (2.0 * (d - 1) / d) * m / p.betaIbGBps();
            case FLAT_RING -> latency + (2.0 * (n - 1) / n) * m / (d > 1 ? Math.min(nvGBps, p.betaIbGBps()) : nvGBps);
        };
    }

    /** Bus bandwidth as M → ∞ (α negligible), GB/s: what busbw approaches at this configuration. */
    public static double busBwAsymptoteGBps(TwoTierForm form, TwoTierConfig c, double betaNvGBps, TwoTierParams p) {
        int n = c.ranks();
        double perByteUs = (timeUs(form, c, betaNvGBps, 0, zeroLatency(p), 1e12)) / 1e12;
        return (2.0 * (n - 1) / n) / (perByteUs * BYTES_PER_US_PER_GBPS);
    }

    private static TwoTierParams zeroLatency(TwoTierParams p) {
        return new TwoTierParams(p.uNv(), p.betaIbGBps(), 0, 0, 0);
    }
}
