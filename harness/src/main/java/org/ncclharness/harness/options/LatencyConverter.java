package org.ncclharness.harness.options;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses a latency with its unit ({@code 0.936us}, {@code 936ns}, {@code 0.5ms}) into microseconds. */
public final class LatencyConverter implements CommandLine.ITypeConverter<Double> {

    private static final Pattern LATENCY = Pattern.compile("([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*(ns|us|µs|ms|s)");

    @Override
    public Double convert(String value) {
        Matcher m = LATENCY.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("'" + value
                    + "' is not a latency: expected a number with a unit, e.g. 0.936us, 936ns, 0.5ms");
        }
        double v = Double.parseDouble(m.group(1));
        double us = switch (m.group(2)) {
            case "ns" -> v / 1e3;
            case "ms" -> v * 1e3;
            case "s" -> v * 1e6;
            default -> v;
        };
        if (Double.isInfinite(us)) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a finite latency: expected e.g."
                    + " 0.936us");
        }
        return us;
    }
}
