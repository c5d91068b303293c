package org.ncclharness.harness.doctor;

import java.util.List;

/**
 * What one rank found, sent to rank 0 for the job summary.
 *
 * @param rank     the rank
 * @param gpus     its GPU facts
 * @param hints    launch advice that is not a problem
 * @param problems its problems (GPU problems included)
 */
public record RankReport(int rank, GpuFacts gpus, List<String> hints, List<Problem> problems) {

    public RankReport {
        hints = List.copyOf(hints);
        problems = List.copyOf(problems);
    }
}
