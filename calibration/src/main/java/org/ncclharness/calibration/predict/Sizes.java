package org.ncclharness.calibration.predict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Message sizes as the command line writes them: nccl-tests' K, M, G (powers of 1024, also KiB/MiB/GiB) and the
 * decimal KB, MB, GB (powers of 1000), and nccl-tests' size list from {@code -b -e -f}.
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
        double unit = switch (m.group(2).toUpperCase(Locale.ROOT)) {
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

    /** nccl-tests' size list (reference A.2): from min by factor f up to max inclusive. */
    public static List<Long> series(long min, long max, long factor) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("need 1 <= -b <= -e, got -b " + min + " -e " + max);
        }
        if (factor < 2) {
            throw new IllegalArgumentException("-f must be at least 2, got " + factor);
        }
        List<Long> out = new ArrayList<>();
        for (long s = min; s <= max && s > 0; s *= factor) {
            out.add(s);
            if (s > Long.MAX_VALUE / factor) {
                break;
            }
        }
        return out;
    }

    /** A size in binary units with three significant digits ({@code 8 GiB}, {@code 1.5 MiB}). */
    public static String binary(double b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (b >= 1024 && u < units.length - 1) {
            b /= 1024;
            u++;
        }
        String digits = String.format(Locale.ROOT, b >= 100 ? "%.0f" : "%.3g", b);
        if (digits.contains(".")) {
            digits = digits.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return digits + " " + units[u];
    }
}
