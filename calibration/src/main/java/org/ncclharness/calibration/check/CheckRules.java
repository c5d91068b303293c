package org.ncclharness.calibration.check;

/**
 * The thresholds of {@code check}, each a command-line flag.
 *
 * @param warnBelowPct      WARN when busbw is below this % of the reference at any bandwidth-bound common size
 *                          (default 90)
 * @param failBelowPct      FAIL when busbw is below this % of the reference at the largest common size (default 75)
 * @param dipPct            a dip is a size whose busbw is below this % of what its two neighbours imply (default 70)
 * @param minBusBwGBps      nccl-tests' NCCL_TESTS_MIN_BW rule: FAIL when the average busbw is below 0.9 × this
 *                          value; null = not checked
 * @param failOnWrong       FAIL on any #wrong &gt; 0 (default true)
 * @param latencyWarnFactor WARN when a latency-bound size takes more than this × the reference's time (default 1.5)
 */
public record CheckRules(double warnBelowPct, double failBelowPct, double dipPct, Double minBusBwGBps,
                         boolean failOnWrong, double latencyWarnFactor) {

    /** nccl-tests fails a run whose average busbw is below 0.9 × NCCL_TESTS_MIN_BW (common.cu). */
    public static final double NCCL_TESTS_MIN_BW_MARGIN = 0.9;
    public static final double DEFAULT_LATENCY_WARN_FACTOR = 1.5;

    public static CheckRules defaults() {
        return new CheckRules(90, 75, 70, null, true, DEFAULT_LATENCY_WARN_FACTOR);
    }

    public CheckRules withMinBusBw(Double gbps) {
        return new CheckRules(warnBelowPct, failBelowPct, dipPct, gbps, failOnWrong, latencyWarnFactor);
    }
}
