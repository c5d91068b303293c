package org.ncclharness.calibration.fit.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The runs the cross-scale algorithms-nearest fit uses. */
class NearestConfigurationsTest {

    private static final List<Integer> RUNS = List.of(0, 1, 2);

    @Test
    void theLargestRunAloneWhereItHasTwiceKPoints() {
        assertThat(NearestConfigurations.of(RUNS, r -> 16, runs -> 8)).containsExactly(2);
    }

    @Test
    void theNextSmallerRunsJoinUntilThePointsSuffice() {
        // 13 points each against k = 8 (the gjaion group's 32-GPU run alone): the 16-GPU run joins
        assertThat(NearestConfigurations.of(RUNS, r -> 13, runs -> 8)).containsExactly(1, 2);
        // a k that grows with the runs (l_net told apart only across configurations) is asked of each candidate
        assertThat(NearestConfigurations.of(RUNS, r -> 9, runs -> 8 + runs.size())).containsExactly(0, 1, 2);
    }

    @Test
    void allRunsWhereEvenTheyFallShort() {
        assertThat(NearestConfigurations.of(RUNS, r -> 3, runs -> 8)).containsExactly(0, 1, 2);
    }
}
