package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.io.InputException;

class RunMetadataOptionsTest {

    @Test
    void theFileSaysFirstAndTheFlagFillsWhatItDoesNot() {
        assertThat(RunMetadataOptions.reconcile("run.txt", "GPU count", 8, null, "--gpus")).isEqualTo(8);
        assertThat(RunMetadataOptions.reconcile("run.txt", "GPU count", 8, 8, "--gpus")).isEqualTo(8);
        assertThat(RunMetadataOptions.reconcile("run.txt", "GPU count", null, 16, "--gpus")).isEqualTo(16);
        assertThat(RunMetadataOptions.reconcile("run.txt", "GPU count", null, null, "--gpus")).isNull();
    }

    @Test
    void aContradictionOrACountBelowOneIsAnInputErrorWhereItCameFrom() {
        assertThatThrownBy(() -> RunMetadataOptions.reconcile("run.txt", "node count", 2, 4, "--nodes"))
                .isInstanceOf(InputException.class)
                .hasMessage("run.txt: the file's node count is 2 but --nodes says 4; drop the flag or fix it");
        assertThatThrownBy(() -> RunMetadataOptions.reconcile("run.txt", "node count", null, 0, "--nodes"))
                .isInstanceOf(InputException.class)
                .hasMessage("--nodes: node count must be at least 1, got 0");
        // a flag below 1 is its own error, also where the file says a count
        assertThatThrownBy(() -> RunMetadataOptions.reconcile("run.txt", "GPU count", 16, -4, "--gpus"))
                .isInstanceOf(InputException.class)
                .hasMessage("--gpus: GPU count must be at least 1, got -4");
    }
}
