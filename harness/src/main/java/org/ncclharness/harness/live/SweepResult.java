package org.ncclharness.harness.live;

import java.util.List;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.format.PerIteration;
import org.ncclharness.calibration.format.RankTimes;
import org.ncclharness.calibration.measure.Sweep;

/**
 * One table of a sweep: one combination's rows (every type, op, root and cycle, in nccl-tests' order).
 *
 * @param requested    the NCCL_ALGO/NCCL_PROTO asked for
 * @param actual       the algorithm/protocol pairs NCCL logged as run, in order; empty when unknown
 * @param perIteration the -I samples, empty without -I
 * @param rankTimes    the fastest and slowest process per row and placement, empty when not measured (a replay)
 * @param ncclEstimates NCCL's own estimate per row (ncclGroupSimulateEnd), empty where NCCL gave none
 */
public record SweepResult(Combination requested, List<String> actual, Sweep sweep, List<PerIteration> perIteration,
                          List<RankTimes> rankTimes, List<NcclEstimate> ncclEstimates) {

    public SweepResult {
        actual = List.copyOf(actual);
        perIteration = List.copyOf(perIteration);
        rankTimes = List.copyOf(rankTimes);
        ncclEstimates = List.copyOf(ncclEstimates);
    }

    /** A result without NCCL's estimates. */
    public SweepResult(Combination requested, List<String> actual, Sweep sweep, List<PerIteration> perIteration,
                       List<RankTimes> rankTimes) {
        this(requested, actual, sweep, perIteration, rankTimes, List.of());
    }

    /** A result without per-process times: a replay or a stored run. */
    public SweepResult(Combination requested, List<String> actual, Sweep sweep, List<PerIteration> perIteration) {
        this(requested, actual, sweep, perIteration, List.of());
    }
}
