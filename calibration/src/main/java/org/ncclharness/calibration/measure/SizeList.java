package org.ncclharness.calibration.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;

/**
 * nccl-tests' size arithmetic (src/common.cu): the {@code -b/-e} parser with binary K/M/G suffixes, the
 * benchmark size list for {@code -f} (multiplicative) or {@code -i} (additive), and the warm-up list, which
 * always doubles from the minimum. Pure arithmetic, so the live sweep (native), its replay and {@code predict}
 * all expand the same list.
 *
 * <p>Two deliberate departures, both where nccl-tests would loop forever: a factor step with {@code -b 0},
 * and an additive step of 0, are rejected; and the warm-up doubles from 1 when the minimum is 0.
 */
public final class SizeList {
    private SizeList() {
    }

    /**
     * Parses a size the way nccl-tests' {@code parsesize} does: a decimal number (fractions allowed), then
     * optionally one of K, M, G (case-insensitive, powers of 1024); anything after that letter is ignored,
     * as {@code sscanf("%lf %1s")} ignores it.
     *
     * @param option nccl-tests' name for the value in its error message: {@code minbytes} or {@code maxbytes}
     * @throws IllegalArgumentException with nccl-tests' message {@code invalid size specified for 'minbytes'}
     */
    public static long parseSize(String text, String option) {
        String s = text.trim();
        int end = 0;
        while (end < s.length() && "0123456789.eE+-".indexOf(s.charAt(end)) >= 0) {
            // stop an exponent sign from swallowing a suffix-less tail
            end++;
        }
        double value;
        try {
            value = Double.parseDouble(s.substring(0, end));
        } catch (NumberFormatException e) {
            throw invalid(option, text);
        }
        String rest = s.substring(end).trim();
        long unit = 1;
        if (!rest.isEmpty()) {
            unit = switch (Character.toUpperCase(rest.charAt(0))) {
                case 'K' -> 1L << 10;
                case 'M' -> 1L << 20;
                case 'G' -> 1L << 30;
                default -> throw invalid(option, text);
            };
        }
        double bytes = value * unit;
        if (bytes < 0 || Double.isNaN(bytes) || bytes >= 0x1p63) {
            throw invalid(option, text);
        }
        return (long) bytes;
    }

    private static IllegalArgumentException invalid(String option, String text) {
        return new IllegalArgumentException("invalid size specified for '" + option + "': '" + text
                + "' (expected a number with an optional K, M or G suffix, e.g. 8, 1K, 128M)");
    }

    /**
     * The benchmark sizes: {@code size = min; while size <= max: size = factor > 1 ? size*factor : size+step}.
     *
     * @param stepBytes  {@code -i}, used when {@code stepFactor <= 1}
     * @param stepFactor {@code -f} (an integer, as nccl-tests parses it with strtol)
     */
    public static List<Long> sizes(long minBytes, long maxBytes, long stepBytes, long stepFactor) {
        validate(minBytes, maxBytes, stepBytes, stepFactor);
        List<Long> out = new ArrayList<>();
        for (long size = minBytes; size <= maxBytes; ) {
            out.add(size);
            // An overflowing next size is past any maximum; one that does not grow is -b 0 -e 0 or -i 0 with -b = -e.
            boolean overflows = stepFactor > 1 ? size > Long.MAX_VALUE / stepFactor : size > Long.MAX_VALUE - stepBytes;
            long next = stepFactor > 1 ? size * stepFactor : size + stepBytes;
            if (overflows || next <= size) {
                break;
            }
            size = next;
        }
        return out;
    }

    /** The warm-up sizes of nccl-tests 2.16.8+: doubling from the minimum up to the maximum. */
    public static List<Long> warmupSizes(long minBytes, long maxBytes) {
        List<Long> out = new ArrayList<>();
        for (long size = Math.max(1, minBytes); size <= maxBytes && size > 0; size *= 2) {
            out.add(size);
        }
        if (minBytes == 0) {
            out.add(0, 0L);
        }
        return out;
    }

    private static void validate(long minBytes, long maxBytes, long stepBytes, long stepFactor) {
        if (minBytes > maxBytes) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "invalid sizes for 'minbytes' and 'maxbytes': %d > %d", minBytes, maxBytes));
        }
        if (stepFactor > 1 && minBytes == 0 && maxBytes > 0) {
            throw new IllegalArgumentException(Advice.with(Setting.MIN_BYTES, 0) + " with "
                    + Advice.with(Setting.STEP_FACTOR, stepFactor) + " never advances: use "
                    + Advice.with(Setting.MIN_BYTES, 1) + " or larger");
        }
        if (stepFactor <= 1 && stepBytes <= 0 && maxBytes > minBytes) {
            throw new IllegalArgumentException(Advice.with(Setting.STEP_BYTES, stepBytes) + " never advances: use "
                    + Advice.with(Setting.STEP_BYTES, 1) + " or larger, or " + Advice.with(Setting.STEP_FACTOR, 2));
        }
    }
}
