package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each fix names the running build's driver, CUDA and runtime (gpu/cuda-builds.json), never another build's. */
class ProbeFailureTest {

    @Test
    void everyFixOfEveryBuildNamesThatBuildsFactsAndNoPlaceholder() {
        for (CudaBuild b : CudaBuilds.all()) {
            for (ProbeFailure f : ProbeFailure.values()) {
                assertThat(f.fix(Optional.of(b))).as("%s of %s", f, b.jar()).doesNotContain("{").doesNotContain("}");
            }
            assertThat(ProbeFailure.NO_DRIVER.fix(Optional.of(b))).contains(b.driverBranch() + " or newer for CUDA "
                    + b.cudaMajor());
            assertThat(ProbeFailure.CUDA_RUNTIME_NOT_FOUND.fix(Optional.of(b))).contains(b.runtime());
            assertThat(ProbeFailure.NCCL_TOO_OLD.fix(Optional.of(b))).contains("nvidia-nccl-cu" + b.cudaMajor());
            for (CudaBuild other : CudaBuilds.all()) {
                if (!other.equals(b)) {
                    for (ProbeFailure f : ProbeFailure.values()) {
                        assertThat(f.fix(Optional.of(b))).as("%s of %s", f, b.jar())
                                .doesNotContain(other.driverBranch()).doesNotContain(other.runtime())
                                .doesNotContain("CUDA " + other.cudaMajor() + " ")
                                .doesNotContain("-cu" + other.cudaMajor());
                    }
                }
            }
        }
    }

    @Test
    void thisClassPathsFixesAreTheCuda13Builds() {
        assertThat(ProbeFailure.DRIVER_TOO_OLD.fix()).isEqualTo("upgrade the NVIDIA driver to R580 or newer (CUDA 13"
                + " runtimes need it); nvidia-smi shows the installed one");
        assertThat(ProbeFailure.CUDA_RUNTIME_NOT_FOUND.fix()).contains("install the CUDA 13 runtime (libcudart.so.13)");
    }

    @Test
    void withoutAKnownBuildNoFixNamesAVersion() {
        for (ProbeFailure f : ProbeFailure.values()) {
            assertThat(f.fix(Optional.empty())).as(f.name()).doesNotContain("{").doesNotContain("R580")
                    .doesNotContain("R525").doesNotContain("libcudart.so.1");
        }
    }
}
