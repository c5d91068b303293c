package org.ncclharness.gpu;

import java.util.Arrays;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * nccl-tests' {@code -I} summary of one placement (its JSON {@code *_per_iter} object): per-iteration times
 * from CUDA events, each the maximum over this process's GPUs and then over all processes. The statistics are
 * nccl-tests 2.19.6's ({@code computeIterStats}, util.cu): p50 is {@code sorted[n/2]} (the upper median for an
 * even n), p95 and p99 nearest-rank (Commons Math estimation type R_1, nccl-tests' {@code percentileIndex}), and
 * the standard deviation divides by n, not n − 1.
 *
 * @param skipped  samples dropped from the summary ({@code -K})
 * @param timesUs  every sample, skipped ones included, in iteration order (per operation: an iteration of
 *                 {@code -m} aggregated operations is divided by {@code -m})
 */
public record IterationStats(int skipped, double minUs, double maxUs, double avgUs, double p50Us, double p95Us,
                             double p99Us, double stdevUs, double cvPct, double[] timesUs) {

    public IterationStats {
        timesUs = timesUs.clone();
    }

    @Override
    public double[] timesUs() {
        return timesUs.clone();
    }

    public static IterationStats of(double[] timesUs, int skip) {
        double[] kept = Arrays.copyOfRange(timesUs, skip, timesUs.length);
        DescriptiveStatistics s = new DescriptiveStatistics(kept);
        Percentile p = new Percentile().withEstimationType(Percentile.EstimationType.R_1);
        p.setData(kept);
        double avg = s.getMean();
        double sd = Math.sqrt(s.getPopulationVariance());
        double[] sorted = s.getSortedValues();
        return new IterationStats(skip, s.getMin(), s.getMax(), avg, sorted[sorted.length / 2], p.evaluate(95),
                p.evaluate(99), sd, avg == 0 ? 0 : 100.0 * sd / avg, timesUs);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IterationStats other && skipped == other.skipped && Arrays.equals(timesUs, other.timesUs);
    }

    @Override
    public int hashCode() {
        return 31 * skipped + Arrays.hashCode(timesUs);
    }

    @Override
    public String toString() {
        return "IterationStats[n=" + timesUs.length + ", skipped=" + skipped + ", min=" + minUs + ", p50=" + p50Us
                + ", p99=" + p99Us + ", max=" + maxUs + "]";
    }
}
