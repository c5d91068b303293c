package org.ncclharness.harness.options;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses a bandwidth with its unit ({@code 25GB/s}, {@code 200Gb/s}, {@code 25GBps}) into decimal GB/s. A rate is
 * a finite number above 0: NaN, an infinity, 0 and a negative rate are refused here, once for every GB/s option,
 * since a threshold of NaN or -5 GB/s would pass every run and a line rate of 0 would divide by it.
 */
public final class BandwidthConverter implements CommandLine.ITypeConverter<Double> {

    private static final String NUMBER = "[-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?";
    private static final Pattern BANDWIDTH = Pattern.compile("(" + NUMBER + ")\\s*(GB/s|GBps|Gb/s|Gbps|MB/s|TB/s)");
    private static final Pattern PLAIN = Pattern.compile(NUMBER);

    @Override
    public Double convert(String value) {
        Matcher m = BANDWIDTH.matcher(value.trim());
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a bandwidth: expected a number with"
                    + " a unit, e.g. 25GB/s (bytes, decimal) or 200Gb/s (bits)");
        }
        double v = Double.parseDouble(m.group(1));
        return aboveZero(value, switch (m.group(2).toLowerCase(Locale.ROOT).replace("ps", "/s")) {
            case "gb/s" -> m.group(2).startsWith("Gb") ? v / 8 : v;
            case "mb/s" -> v / 1e3;
            case "tb/s" -> v * 1e3;
            default -> throw new CommandLine.TypeConversionException("unknown bandwidth unit in '" + value + "'");
        });
    }

    private static double aboveZero(String value, double gbps) {
        if (!(gbps > 0) || Double.isInfinite(gbps)) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a bandwidth above 0: expected a"
                    + " finite rate above 0 GB/s, e.g. 25 or 200Gb/s");
        }
        return gbps;
    }

    /** A bandwidth where the unit may be left out: a plain number is GB/s (nccl-tests' own unit). */
    public static final class GBpsByDefault implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            if (PLAIN.matcher(value.trim()).matches()) {
                return aboveZero(value, Double.parseDouble(value.trim()));
            }
            if (!BANDWIDTH.matcher(value.trim()).matches()) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a bandwidth: expected a finite"
                        + " number of GB/s above 0, e.g. 25, or one with a unit, e.g. 200Gb/s");
            }
            return new BandwidthConverter().convert(value);
        }
    }
}
