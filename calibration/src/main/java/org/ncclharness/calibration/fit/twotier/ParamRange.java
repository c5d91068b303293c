package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierParam;
import java.util.Locale;
import org.ncclharness.calibration.measure.InputException;

/**
 * A search range for one parameter: {@code points} values evenly spaced from {@code min} to {@code max}
 * inclusive (one point: {@code min}, which must then equal {@code max}). The grid visits exactly these values;
 * the fitter searches the whole closed interval.
 */
public record ParamRange(double min, double max, int points) {

    /**
     * Checks the range for a parameter and says what is wrong in one line, naming where it came from.
     *
     * @param source where the range came from ({@code --grid-u-nv}, a file), used as the message's prefix
     * @throws InputException for a non-finite bound, min &gt; max, fewer than one point, a bandwidth or
     *                        utilisation that is not positive, or a latency below zero
     */
    public ParamRange checked(TwoTierParam p, String source) {
        String what = p.id() + " range " + this.text();
        if (!Double.isFinite(min) || !Double.isFinite(max)) {
            throw new InputException(source, 0, what + ": bounds must be finite numbers");
        }
        if (points < 1) {
            throw new InputException(source, 0, what + ": " + points + " points; give at least 1 point per axis");
        }
        if (min > max) {
            throw new InputException(source, 0, what + ": min > max; write min:max:points with min <= max");
        }
        if (points == 1 && min != max) {
            throw new InputException(source, 0, what + ": one point needs min = max (or give at least 2 points)");
        }
        boolean bandwidth = p == TwoTierParam.U_NV || p == TwoTierParam.BETA_IB;
        if (bandwidth && !(min > 0)) {
            throw new InputException(source, 0, what + ": " + p.id()
                    + " is a bandwidth (or a fraction of one) and must be > 0");
        }
        if (!bandwidth && min < 0) {
            throw new InputException(source, 0, what + ": " + p.id() + " is a latency and cannot be negative");
        }
        return this;
    }

    /**
     * Parses {@code min:max:points}, e.g. {@code 0.5:1:30}.
     *
     * @param source the flag or file the text came from, for the error message
     */
    public static ParamRange parse(TwoTierParam p, String source, String text) {
        String[] f = text.trim().split(":");
        if (f.length != 3) {
            throw new InputException(source, 0, p.id() + " range '" + text + "': expected min:max:points, e.g. 0.5:1:30");
        }
        try {
            return new ParamRange(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Integer.parseInt(f[2]))
                    .checked(p, source);
        } catch (NumberFormatException e) {
            throw new InputException(source, 0, p.id() + " range '" + text
                    + "': expected two numbers and a whole number of points, e.g. 0.5:1:30");
        }
    }

    /** The grid values, min first. */
    public double[] values() {
        double[] v = new double[points];
        for (int i = 0; i < points; i++) {
            v[i] = points == 1 ? min : min + (max - min) * i / (points - 1);
        }
        return v;
    }

    public String text() {
        return String.format(Locale.ROOT, "%s:%s:%d", fmt(min), fmt(max), points);
    }

    private static String fmt(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }
}
