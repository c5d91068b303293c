package org.ncclharness.calibration.format;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * The few C printf conversions nccl-tests output needs, done the way glibc does them (round half to even on the
 * exact binary value), so our tables are byte-identical to nccl-tests' own.
 */
public final class CFormat {

    private CFormat() {
    }

    /**
     * nccl-tests 2.19.6 {@code getFloatStr(value, width)}: {@code %.2f} if it fits in width, else {@code %.1f},
     * else {@code %.0f}, else {@code %.1e} (width ≥ 7) or {@code %.0e}; right-aligned to width.
     */
    public static String floatStr(double value, int width) {
        for (int decimals = 2; decimals >= 0; decimals--) {
            String s = fixed(value, decimals);
            if (s.length() <= width) {
                return pad(s, width);
            }
        }
        return pad(exp(value, width >= 7 ? 1 : 0), width);
    }

    /** {@code %.Nf}. */
    public static String fixed(double value, int decimals) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** {@code %.Ne}: mantissa with N decimals, exponent sign and at least two digits. */
    public static String exp(double value, int decimals) {
        if (value == 0) {
            return String.format(Locale.ROOT, "%." + decimals + "fe+00", 0.0);
        }
        BigDecimal bd = rounded(value, decimals + 1);
        int e = bd.precision() - bd.scale() - 1;
        BigDecimal mant = bd.movePointLeft(e).setScale(decimals, RoundingMode.HALF_EVEN);
        return mant.toPlainString() + (e < 0 ? "e-" : "e+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
    }

    private static final BigDecimal LARGEST = new BigDecimal(Double.MAX_VALUE);

    /**
     * {@code value} to {@code digits} significant digits, half-even as C rounds, except where that would pass the
     * largest double (1.8e308 shown as 2e+308): then toward zero, so that no reader refuses what was written.
     */
    private static BigDecimal rounded(double value, int digits) {
        BigDecimal bd = new BigDecimal(value).round(new MathContext(digits, RoundingMode.HALF_EVEN));
        return bd.abs().compareTo(LARGEST) > 0 ? new BigDecimal(value).round(new MathContext(digits,
                RoundingMode.DOWN)) : bd;
    }

    /** {@code %g} (precision 6): the shorter of %e and %f, trailing zeros removed, as C prints it. */
    public static String g(double value) {
        if (value == 0) {
            return "0";
        }
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return fixed(value, 0);
        }
        BigDecimal bd = rounded(value, 6);
        int e = bd.precision() - bd.scale() - 1;
        if (e < -4 || e >= 6) {
            BigDecimal mant = bd.movePointLeft(e).stripTrailingZeros();
            return mant.toPlainString() + (e < 0 ? "e-" : "e+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
        }
        String plain = bd.setScale(Math.max(0, 5 - e), RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
        return plain;
    }

    public static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
