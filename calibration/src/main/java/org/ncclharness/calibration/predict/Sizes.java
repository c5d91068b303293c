package org.ncclharness.calibration.predict;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.SizeList;

/**
 * Message sizes as {@code predict}'s command line writes them: nccl-tests' K, M, G (powers of 1024, also
 * KiB/MiB/GiB, and T/TiB for sizes no GPU holds yet) and the decimal KB, MB, GB, TB (powers of 1000, as a
 * model's size is often quoted), over nccl-tests' size list from {@code -b -e -f} ({@link SizeList}).
 *
 * <p>Not {@link SizeList#parseSize}: that one mirrors nccl-tests to the letter for {@code sweep} (where
 * {@code 16MB} means 16 MiB and a fraction of a byte is dropped); here KB is 1000 bytes and a size must be a
 * whole number of bytes.
 */
public final class Sizes {

    private static final Pattern SIZE = Pattern.compile("([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([a-zA-Z]*)");

    private Sizes() {
    }

    /** Bytes for a size; throws IllegalArgumentException naming the accepted forms. */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(bad(text));
        }
        double v = Double.parseDouble(m.group(1));
        String suffix = m.group(2);
        if (suffix.length() == 2 && suffix.endsWith("b") && !suffix.startsWith("b")) {
            // 1Gb is a gigabit to a network engineer: a message size in bits is not meant, so ask
            throw new IllegalArgumentException("'" + text + "': a lower-case b is bits (" + suffix + "); a size is in"
                    + " bytes: 1" + suffix.substring(0, 1).toUpperCase(Locale.ROOT) + "B (decimal) or 1"
                    + suffix.substring(0, 1).toUpperCase(Locale.ROOT) + "iB (binary)");
        }
        double unit = switch (suffix.toUpperCase(Locale.ROOT)) {
            case "", "B" -> 1;
            case "K", "KIB" -> 1L << 10;
            case "M", "MIB" -> 1L << 20;
            case "G", "GIB" -> 1L << 30;
            case "T", "TIB" -> 1L << 40;
            case "KB" -> 1e3;
            case "MB" -> 1e6;
            case "GB" -> 1e9;
            case "TB" -> 1e12;
            default -> throw new IllegalArgumentException(bad(text));
        };
        double bytes = v * unit;
        if (bytes < 1 || bytes > Long.MAX_VALUE || bytes != Math.rint(bytes)) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes of at least 1");
        }
        return (long) bytes;
    }

    private static String bad(String text) {
        return "'" + text + "' is not a size: expected e.g. 1048576, 1M or 1MiB (binary, as nccl-tests), 1MB (decimal)";
    }

    /**
     * nccl-tests' size list (src/common.cu): from min by factor f up to max inclusive. {@code predict} has no
     * {@code -i}, so it asks for a factor, and says so in its own words.
     */
    public static List<Long> series(long min, long max, long factor) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("need 1 <= " + Advice.name(Setting.MIN_BYTES) + " <= "
                    + Advice.name(Setting.MAX_BYTES) + ", got " + Advice.with(Setting.MIN_BYTES, min) + " "
                    + Advice.with(Setting.MAX_BYTES, max));
        }
        if (factor < 2) {
            throw new IllegalArgumentException(Advice.name(Setting.STEP_FACTOR) + " must be at least 2, got " + factor);
        }
        return SizeList.sizes(min, max, 0, factor);
    }
}
