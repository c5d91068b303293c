package org.ncclharness.harness.options;

import picocli.CommandLine;

/**
 * A count of GPUs or hosts ({@code --gpus}, {@code --nodes}): a whole number of at most {@link #MAX}. Far above any
 * machine built (the largest clusters hold some 10^5 GPUs), and far below where a model's count of ring steps,
 * 2 (N - 1) in an int, would wrap round to a negative time; each command keeps its own lower bound and words it.
 */
public final class CountConverter implements CommandLine.ITypeConverter<Integer> {

    /** 2^20 GPUs or hosts. */
    public static final int MAX = 1 << 20;

    @Override
    public Integer convert(String value) {
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a count: expected a whole number,"
                    + " e.g. 16");
        }
        if (n > MAX) {
            throw new CommandLine.TypeConversionException(n + " is above " + MAX + " (2^20), the most GPUs or hosts"
                    + " a count here takes");
        }
        return n;
    }
}
