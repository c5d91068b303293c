package org.ncclharness.calibration.format;

import org.ncclharness.calibration.measure.Placement;

/**
 * The fastest and slowest process of one row and placement: each process's own per-operation completion time,
 * reduced across the job whatever {@code -a} made of them for the table. nccl-tests does not record it; a
 * gap between the two is a straggler even where the reported mean looks healthy.
 *
 * @param row   index of the row in its sweep
 * @param minUs the fastest process's time (a process driving several GPUs has one time for all of them)
 * @param maxUs the slowest process's time
 */
public record RankTimes(int row, Placement placement, double minUs, double maxUs) {
}
