package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CudaBuildsTest {

    @Test
    void aMachineTakesTheNewestBuildItsDriverSupports() {
        assertThat(CudaBuilds.forDriver(13000)).map(CudaBuild::jar).contains("harness.jar");
        assertThat(CudaBuilds.forDriver(13020)).map(CudaBuild::jar).contains("harness.jar");
        // R535-R570 drivers support CUDA 12.2-12.8
        assertThat(CudaBuilds.forDriver(12080)).map(CudaBuild::jar).contains("harness-cuda12.jar");
        assertThat(CudaBuilds.forDriver(12000)).map(CudaBuild::jar).contains("harness-cuda12.jar");
        assertThat(CudaBuilds.forDriver(11080)).isEmpty();
    }

    @Test
    void thisClassPathIsTheCuda13BuildItsBindingsSayItIs() {
        CudaBuild self = CudaBuilds.current().orElseThrow();
        assertThat(self.jar()).isEqualTo("harness.jar");
        assertThat(self.runtime()).isEqualTo("libcudart.so.13");
        assertThat(self.minDriverCode()).isEqualTo(13000);
        assertThat(self.describe()).isEqualTo("harness.jar (libcudart.so.13; drivers supporting CUDA 13.0+, R580 on)");
    }

    @Test
    void aDriverTooOldForThisBuildIsToldWhichJarRunsOnIt() {
        CudaBuild self = CudaBuilds.current().orElseThrow();
        assertThat(CudaBuilds.mismatch(self, 13000)).isEmpty();
        assertThat(CudaBuilds.mismatch(self, 12040)).contains("the driver supports CUDA 12.4, below harness.jar's"
                + " CUDA 13.0: use harness-cuda12.jar (libcudart.so.12; drivers supporting CUDA 12.0+, R525 on)");
        assertThat(CudaBuilds.mismatch(self, 11080)).contains("the driver supports CUDA 11.8, below harness.jar's"
                + " CUDA 13.0: no build of the harness runs on it: update the driver to R525 or newer");
        CudaBuild cuda12 = CudaBuilds.forDriver(12000).orElseThrow();
        assertThat(CudaBuilds.mismatch(cuda12, 13000)).as("a newer driver runs an older runtime").isEmpty();
    }
}
