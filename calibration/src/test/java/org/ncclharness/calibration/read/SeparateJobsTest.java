package org.ncclharness.calibration.read;

import org.ncclharness.calibration.measure.InputException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Several jobs printing into one log (nccl-tests built without MPI=1) are refused with the fix, on real logs
 * ({@code logs/real/refused}, each naming its URL); a sweep repeated by {@code -N} is not mistaken for them.
 */
class SeparateJobsTest {

    private static final Path DIR = Path.of("src/test/resources/logs/real/refused");

    private static void read(String id) throws IOException {
        RealLogFixturesTest.read(DIR, id);
    }

    @Test
    void twoJobsListingTheSameRanksOnTwoHostsAreRefused() {
        assertThatThrownBy(() -> read("separate_jobs_h100_2x8_together_slurm"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("the device list shows rank 0 2 times (on gpu-dp-2jvzl-pqq7p, gpu-dp-2jvzl-ddjjs)")
                .hasMessageContaining("several jobs printed into one log")
                .hasMessageContaining("make MPI=1");
    }

    @Test
    void rowsOfTwoJobsInterleavingAreRefusedAtTheRowThatGivesThemAway() {
        assertThatThrownBy(() -> read("separate_jobs_2x2_nccltests182_excerpt"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining(":18:")
                .hasMessageContaining("the sizes run ..., 256, 8, 512 B: neither one rising sweep nor the sweep"
                        + " started again (-N)");
    }

    @Test
    void aSweepStartedAgainIsOneJobAndInterleavedSizesAreNot() {
        assertThat(SeparateJobs.interleavedAt(List.of(8L, 16L, 32L, 8L, 16L, 32L, 8L, 16L))).isEqualTo(-1);
        assertThat(SeparateJobs.interleavedAt(List.of(8L, 8L, 8L))).isEqualTo(-1);
        assertThat(SeparateJobs.interleavedAt(List.of(8L, 16L, 32L))).isEqualTo(-1);
        // rounded to whole elements per rank: 12 ranks of float print 0, 0, 48
        assertThat(SeparateJobs.interleavedAt(List.of(0L, 0L, 48L, 96L, 0L, 0L, 48L))).isEqualTo(-1);
        assertThat(SeparateJobs.interleavedAt(List.of(8L, 16L, 32L, 16L))).isEqualTo(3);
        assertThat(SeparateJobs.interleavedAt(List.of(8L, 16L, 32L, 8L, 32L))).isEqualTo(4);
    }
}
