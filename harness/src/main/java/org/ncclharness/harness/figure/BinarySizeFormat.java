package org.ncclharness.harness.figure;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;

/**
 * Message sizes the way nccl-tests' flags spell them: binary units, {@code 512}, {@code 1K}, {@code 64M},
 * {@code 8G} (powers of 1024). The size axis and the crossover label use it, so the picture reads in the same
 * units as the {@code -b}/{@code -e} a user typed. Sizes between powers keep up to three significant digits
 * ({@code 1.5K}).
 */
final class BinarySizeFormat extends NumberFormat {
    private static final long serialVersionUID = 1L;
    private static final String[] UNITS = {"", "K", "M", "G", "T", "P"};

    static String of(double bytes) {
        return new BinarySizeFormat().format(bytes);
    }

    @Override
    public StringBuffer format(double bytes, StringBuffer to, FieldPosition pos) {
        int unit = 0;
        double v = bytes;
        while (Math.abs(v) >= 1024 && unit < UNITS.length - 1) {
            v /= 1024;
            unit++;
        }
        BigDecimal rounded = new BigDecimal(v).round(new java.math.MathContext(3, RoundingMode.HALF_EVEN));
        return to.append(rounded.stripTrailingZeros().toPlainString()).append(UNITS[unit]);
    }

    @Override
    public StringBuffer format(long bytes, StringBuffer to, FieldPosition pos) {
        return format((double) bytes, to, pos);
    }

    /**
     * Axis labels are only ever written, never read back: every parse fails the way NumberFormat's contract
     * says a failed parse does (index unchanged, error index set, null).
     */
    @Override
    public Number parse(String source, ParsePosition pos) {
        pos.setErrorIndex(pos.getIndex());
        return null;
    }
}
