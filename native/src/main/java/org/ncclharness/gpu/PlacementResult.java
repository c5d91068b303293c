package org.ncclharness.gpu;

/**
 * One placement of one size as the loop measured it, before any formatting.
 *
 * @param timeUs    per-operation completion time, combined across processes per {@code -a}
 * @param cpuTimeUs per-operation launch time (taken before the final stream wait), for {@code -C}
 * @param wrong     #wrong summed over all ranks, null when not checked (N/A)
 * @param perIteration the -I summary, null without -I
 * @param minRankTimeUs the fastest process's own per-operation completion time (whatever {@code -a} reports);
 *                      a process driving several GPUs ({@code -g}) has one time for all of them
 * @param maxRankTimeUs the slowest process's, likewise
 */
public record PlacementResult(double timeUs, double cpuTimeUs, double algBwGBps, double busBwGBps, Long wrong,
                              IterationStats perIteration, double minRankTimeUs, double maxRankTimeUs) {
}
