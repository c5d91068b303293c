package org.ncclharness.calibration.measure;

/**
 * The lines nccl-tests prints after a table (src/util.cu), as the source states them. A log whose author
 * trimmed rows keeps the average nccl-tests computed over every row it ran, which the remaining rows cannot
 * reproduce, so a reader carries what it read and a writer prints that, not a recomputation.
 *
 * @param outOfBounds  the text after {@code # Out of bounds values :}, e.g. {@code 0 OK}; null when not stated
 * @param avgBusBwGBps the number after {@code # Avg bus bandwidth :}; null when not stated
 * @param minBwStatus  the {@code OK}/{@code FAILED} after that number (NCCL_TESTS_MIN_BW set); null when absent
 */
public record Trailer(String outOfBounds, Double avgBusBwGBps, String minBwStatus) {

    public static final Trailer NONE = new Trailer(null, null, null);

    public boolean statesAverage() {
        return avgBusBwGBps != null;
    }
}
