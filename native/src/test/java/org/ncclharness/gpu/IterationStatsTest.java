package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The -I statistics as nccl-tests 2.19.6 computes them (util.cu computeIterStats), number for number. */
class IterationStatsTest {

    @Test
    void p50IsTheUpperMedianPercentilesAreNearestRankAndTheDeviationDividesByN() {
        // 20 samples 1..20 and one skipped warm-up sample of 100
        double[] t = new double[21];
        t[0] = 100;
        for (int i = 1; i <= 20; i++) {
            t[i] = i;
        }
        IterationStats s = IterationStats.of(t, 1);
        assertThat(s.p50Us()).isEqualTo(11); // sorted[20 / 2]
        assertThat(s.p95Us()).isEqualTo(19); // sorted[min(19, (20*95+99)/100 - 1)] = sorted[18]
        assertThat(s.p99Us()).isEqualTo(20); // sorted[min(19, (20*99+99)/100 - 1)] = sorted[19]
        assertThat(s.avgUs()).isEqualTo(10.5);
        assertThat(s.stdevUs()).isCloseTo(Math.sqrt(33.25), within(1e-12)); // (n^2 - 1)/12 for 1..n
        assertThat(s.cvPct()).isCloseTo(100 * Math.sqrt(33.25) / 10.5, within(1e-9));
        assertThat(IterationStats.of(new double[] {7}, 0).stdevUs()).isZero();
    }
}
