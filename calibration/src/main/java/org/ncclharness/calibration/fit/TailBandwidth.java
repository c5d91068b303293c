package org.ncclharness.calibration.fit;

import java.util.Optional;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.ncclharness.calibration.measure.SizeText;

/**
 * The bus bandwidth a sweep's largest sizes reach: the α-β line T = α + f·M/β through its bandwidth-bound end, the
 * sizes within {@value #OCTAVES} octaves of the largest whose busbw is at least {@value #BUSBW_SHARE} of the
 * largest size's, fitted by least squares on relative error with α ≥ 0.
 *
 * <p>Why the envelopes take β from here rather than from the whole curve: a real sweep's busbw keeps climbing
 * towards its largest sizes more slowly than one α-β line says (channels, chunks and the network's pipeline fill
 * in with size), and a fit over every size lets the mid-size regimes set β. Inside the sweep the latencies make up
 * for it; beyond it the time then grows at a bandwidth the largest sizes contradict. Fitting the largest sizes
 * alone is how an engineer reads a bandwidth off a curve, and it is what held-out sizes above the fit confirm
 * (docs/model-accuracy.md, extrapolation). β stays one quantity estimated from the data (k does not change).
 *
 * @param busBwGBps the line's bus bandwidth, f·M/(T − α) as M grows
 * @param alphaUs   the line's intercept (≥ 0)
 * @param fromBytes the smallest size of the end fitted
 * @param toBytes   the largest size
 * @param points    the sizes fitted
 */
public record TailBandwidth(double busBwGBps, double alphaUs, double fromBytes, double toBytes, int points) {

    /** How far below the largest size the end reaches: two octaves (three sizes of a {@code -f 2} sweep). */
    public static final double OCTAVES = 2;
    /** A size whose busbw is below this share of the largest size's is still latency-bound, not the end. */
    public static final double BUSBW_SHARE = 0.8;
    /**
     * A sweep has levelled off where every size within {@value #OCTAVES} octaves below its largest reaches at least
     * this share of the largest size's busbw. Of the bundled runs that sweep to 128 MiB or more nearly all reach
     * 0.9 or more two octaves down (most 0.95-1.0); a sweep stopped while busbw still climbs does not (ABCI's
     * 16-host run, 32 MiB at most: 81 % at 8 MiB). Runs below it are either unfinished or uneven at their end
     * (a dip), and neither says what the hardware reaches.
     */
    public static final double PLATEAU_SHARE = 0.9;
    private static final double BYTES_PER_US_PER_GBPS = 1e3;
    /** Relative agreement taken as the same bandwidth (a pinned value carried through τ·β or η·β). */
    private static final double SAME = 1e-9;

    /**
     * The end of a sweep and its bandwidth, for a collective of bus factor f; empty where the end holds fewer than
     * two distinct sizes (a sweep that stops at one size, or whose largest sizes are not bandwidth-bound).
     */
    public static Optional<TailBandwidth> of(FitPoints p, double busFactor) {
        int n = p.size();
        if (n < 2) {
            return Optional.empty();
        }
        double[] bytes = p.bytes();
        double[] t = p.timeUs();
        double[] bus = p.busBwGBps();
        double largest = bytes[n - 1];
        double floor = BUSBW_SHARE * bus[n - 1];
        int first = n - 1;
        while (first > 0 && bytes[first - 1] >= largest / Math.pow(2, OCTAVES) && bus[first - 1] >= floor) {
            first--;
        }
        if (bytes[first] == largest) {
            return Optional.empty();
        }
        int m = n - first;
        // relative residuals (α + c_i·x)/T_i − 1 are linear in (α, x = 1/β): least squares by QR
        double[][] a = new double[m][2];
        double[] ones = new double[m];
        for (int i = 0; i < m; i++) {
            double ti = t[first + i];
            a[i][0] = 1 / ti;
            a[i][1] = busFactor * bytes[first + i] / BYTES_PER_US_PER_GBPS / ti;
            ones[i] = 1;
        }
        RealVector sol;
        try {
            sol = new QRDecomposition(new Array2DRowRealMatrix(a, false)).getSolver()
                    .solve(new ArrayRealVector(ones, false));
        } catch (SingularMatrixException e) {
            return Optional.empty(); // times so far apart (1e-300 to 1e300 us) that the columns lose their rank
        }
        double alpha = sol.getEntry(0);
        double x = sol.getEntry(1);
        if (alpha < 0 || !(x > 0)) {
            // through the origin: the end is all bandwidth
            double num = 0;
            double den = 0;
            for (double[] row : a) {
                num += row[1];
                den += row[1] * row[1];
            }
            alpha = 0;
            x = num / den;
        }
        if (!(x > 0) || !Double.isFinite(x)) {
            return Optional.empty();
        }
        return Optional.of(new TailBandwidth(1 / x, alpha, bytes[first], largest, m));
    }

    /**
     * Whether the sweep's busbw has levelled off at its largest size ({@link #PLATEAU_SHARE}): at least one other
     * size within {@value #OCTAVES} octaves below it, and each such size at {@link #PLATEAU_SHARE} of the
     * largest's busbw or more. Only such a run's largest-size busbw is what its hardware reaches.
     */
    public static boolean levelledOff(FitPoints p) {
        int n = p.size();
        if (n < 2) {
            return false;
        }
        double[] bytes = p.bytes();
        double[] bus = p.busBwGBps();
        double largest = bytes[n - 1];
        boolean any = false;
        for (int i = n - 2; i >= 0 && bytes[i] >= largest / Math.pow(2, OCTAVES); i--) {
            if (bytes[i] < largest) {
                if (bus[i] < PLATEAU_SHARE * bus[n - 1]) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /**
     * Whether a fit whose largest size moves at {@code carrierBusBwGBps} (the bus bandwidth of the candidate that
     * carries it) holds this end's bandwidth: set, not fitted, so equal to rounding. A fit pinned on Simple's line
     * but carrying the end on LL128 (η·β) does not.
     */
    public boolean heldAt(double carrierBusBwGBps) {
        return Math.abs(carrierBusBwGBps - busBwGBps) <= SAME * busBwGBps;
    }

    /** {@code 2 GiB-8 GiB (3 sizes)}. */
    public String range() {
        return SizeText.approx(fromBytes) + "-" + SizeText.approx(toBytes) + " (" + points + " sizes)";
    }
}
