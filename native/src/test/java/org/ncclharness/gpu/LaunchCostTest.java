package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launch path's host cost through the real JavaCPP bindings, into a gcc-built libnccl.so.2 whose
 * ncclAllReduce returns at once (and a stub driver so the CUDA runtime loads): the crossing is timed, and the
 * result NCCL returned comes back.
 */
class LaunchCostTest {

    @TempDir
    Path tmp;

    @Test
    void theRealBindingIsCrossedAndTimed() throws Exception {
        Path drv = StubLibraries.oldDriver(tmp.resolve("driver"), 13000);
        Path nccl = StubLibraries.ncclRejectingLaunches(tmp.resolve("nccl"), 22703);
        Path caches = Files.createDirectories(Path.of("target", "child-javacpp-cache"));
        Path cache = Files.createTempDirectory(caches.toAbsolutePath(), "cache");
        ChildJvm.Result r = ChildJvm.run(LaunchCostChild.class, Map.of("LD_LIBRARY_PATH", drv.toString()), cache,
                nccl.toString());
        System.out.println(r.output());
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.value("nccl")).isEqualTo("2.27.3");
        assertThat(r.value("rc")).isEqualTo("4");
        assertThat(Double.parseDouble(r.value("cold"))).isPositive();
        assertThat(Double.parseDouble(r.value("warm"))).isPositive().isLessThan(1e6);
    }
}
