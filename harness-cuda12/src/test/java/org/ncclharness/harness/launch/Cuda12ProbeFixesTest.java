package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.ncclharness.gpu.ProbeFailure;

/**
 * harness-cuda12.jar's probe fixes come from its own build's facts (gpu/cuda-builds.json, found by the CUDA 12
 * preset on its class path): a CUDA 12 runtime and an R525 driver, not harness.jar's CUDA 13 and R580.
 */
class Cuda12ProbeFixesTest {

    @Test
    void theFixesNameCuda12AndItsDriverNeverCuda13() {
        assertThat(ProbeFailure.NO_DRIVER.fix()).contains("R525 or newer for CUDA 12").doesNotContain("R580");
        assertThat(ProbeFailure.DRIVER_TOO_OLD.fix()).contains("R525").doesNotContain("CUDA 13");
        assertThat(ProbeFailure.CUDA_RUNTIME_NOT_FOUND.fix()).contains("CUDA 12 runtime (libcudart.so.12)")
                .doesNotContain("libcudart.so.13");
        assertThat(ProbeFailure.NCCL_NOT_FOUND.fix()).contains("nvidia-nccl-cu12").doesNotContain("cu13");
    }
}
