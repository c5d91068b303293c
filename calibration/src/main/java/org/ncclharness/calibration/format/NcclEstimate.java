package org.ncclharness.calibration.format;

/**
 * NCCL's own estimate of one row's operation (ncclGroupSimulateEnd, NCCL 2.22+): the time its tuning model chose
 * the algorithm and protocol by, for one out-of-place operation of the row's size. A prediction by NCCL, not a
 * measurement; coarse by design, so it is shown beside the measurement and never judged against.
 *
 * @param row    index of the row in its sweep
 * @param timeUs NCCL's estimated time in µs
 */
public record NcclEstimate(int row, double timeUs) {

    /** The JSON field, in a row's {@code nccl_harness} object. */
    public static final String FIELD = "nccl_estimate_time_us";
}
