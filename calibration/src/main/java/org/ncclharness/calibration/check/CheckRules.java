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
 * @param lineRateWarnPct   where the line rate is the reference, WARN below this % of it; null: the default
 *                          ({@link HealthCheck#HEALTHY_SHARE_OF_LINE_RATE_PCT})
 * @param lineRateFailPct   where the line rate is the reference, FAIL below this % of it; null: the default, across
 *                          hosts only ({@link HealthCheck#BROKEN_SHARE_OF_LINE_RATE_PCT}), which holds whatever
 *                          the reference
 */
public record CheckRules(double warnBelowPct, double failBelowPct, double dipPct, Double minBusBwGBps,
                         boolean failOnWrong, double latencyWarnFactor, Double lineRateWarnPct,
                         Double lineRateFailPct) {

    /** Rules whose line-rate thresholds are the defaults. */
    public CheckRules(double warnBelowPct, double failBelowPct, double dipPct, Double minBusBwGBps,
                      boolean failOnWrong, double latencyWarnFactor) {
        this(warnBelowPct, failBelowPct, dipPct, minBusBwGBps, failOnWrong, latencyWarnFactor, null, null);
    }

    /**
     * The --warn-below / --fail-below a user gave, applied to the line rate too where it is the reference: a
     * threshold the user stated is not overruled by the default's.
     */
    public CheckRules withLineRate(Double warnPct, Double failPct) {
        return new CheckRules(warnBelowPct, failBelowPct, dipPct, minBusBwGBps, failOnWrong, latencyWarnFactor,
                warnPct, failPct);
    }

    /** nccl-tests fails a run whose average busbw is below 0.9 × NCCL_TESTS_MIN_BW (common.cu). */
    public static final double NCCL_TESTS_MIN_BW_MARGIN = 0.9;
    public static final double DEFAULT_LATENCY_WARN_FACTOR = 1.5;

    public static CheckRules defaults() {
        return new CheckRules(90, 75, 70, null, true, DEFAULT_LATENCY_WARN_FACTOR);
    }

    public CheckRules withMinBusBw(Double gbps) {
        return new CheckRules(warnBelowPct, failBelowPct, dipPct, gbps, failOnWrong, latencyWarnFactor,
                lineRateWarnPct, lineRateFailPct);
    }
}
