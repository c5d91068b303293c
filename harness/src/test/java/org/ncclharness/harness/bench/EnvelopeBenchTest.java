package org.ncclharness.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.ncclharness.harness.CliRun;

class EnvelopeBenchTest {

    @Test
    void reportsPerFitTimesOverTheBundledDatasets() {
        CliRun r = CliRun.of("bench", "envelope", "--repeat", "1");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("bench envelope: \\d+ datasets with >= 21 points, 1 runs")
                .contains("one fit: median").contains("fit with leave-one-out: median");
    }
}
