package org.ncclharness.calibration.format;

import java.util.List;
import org.ncclharness.calibration.measure.Placement;

/**
 * Per-iteration timing of one row and placement, as nccl-tests {@code -I 1 -J} writes it (nccl-tests src/util.cu).
 *
 * @param row                   index of the row in its sweep
 * @param timesUs               the per-iteration times (max over the process's GPUs)
 * @param perProcessMaxTimesUs  one list per process (multi-process runs), empty otherwise
 */
public record PerIteration(int row, Placement placement, int skippedIterations, double minUs, double maxUs,
                           double avgUs, double p50Us, double p95Us, double p99Us, double stdevUs, double cvPct,
                           List<Double> timesUs, List<List<Double>> perProcessMaxTimesUs) {

    public PerIteration {
        timesUs = List.copyOf(timesUs);
        perProcessMaxTimesUs = perProcessMaxTimesUs.stream().map(List::copyOf).toList();
    }
}
