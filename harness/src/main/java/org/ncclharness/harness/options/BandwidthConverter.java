package org.ncclharness.harness.options;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses a bandwidth with its unit ({@code 25GB/s}, {@code 200Gb/s}, {@code 25GBps}) into decimal GB/s. */
public final class BandwidthConverter implements CommandLine.ITypeConverter<Double> {

    private static final Pattern BANDWIDTH = Pattern.compile(
            "([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*(GB/s|GBps|Gb/s|Gbps|MB/s|TB/s)");

    @Override
    public Double convert(String value) {
        Matcher m = BANDWIDTH.matcher(value.trim());
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a bandwidth: expected a number with"
                    + " a unit, e.g. 25GB/s (bytes, decimal) or 200Gb/s (bits)");
        }
        double v = Double.parseDouble(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT).replace("ps", "/s")) {
            case "gb/s" -> m.group(2).startsWith("Gb") ? v / 8 : v;
            case "mb/s" -> v / 1e3;
            case "tb/s" -> v * 1e3;
            default -> throw new CommandLine.TypeConversionException("unknown bandwidth unit in '" + value + "'");
        };
    }

    /** A bandwidth where the unit may be left out: a plain number is GB/s (nccl-tests' own unit). */
    public static final class GBpsByDefault implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                return Double.valueOf(value.trim());
            } catch (NumberFormatException e) {
                return new BandwidthConverter().convert(value);
            }
        }
    }
}
