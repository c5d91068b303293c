package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real probe, the real JavaCPP bindings and the real CUDA runtime on a machine without a GPU, each in a
 * child JVM whose LD_LIBRARY_PATH decides which driver and which NCCL it can find. Nothing is mocked: the
 * stand-ins are shared objects built with gcc, loaded by the dynamic linker like the real ones. The printed
 * lines asserted below are the ones a user sees.
 */
class ProbeEnvironmentTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void machineHasNoDriver() throws IOException, InterruptedException {
        String cache = ldconfig();
        assumeFalse(cache.contains("libcuda.so.1 "), "a real NVIDIA driver is installed; these tests need a machine without one");
        assumeTrue(cache.contains("libcudart.so.13 ") || java.nio.file.Files.exists(Path.of("/usr/local/cuda/lib64/libcudart.so.13")),
                "the CUDA 13 runtime is not installed");
    }

    @Test
    void withoutADriverTheProbeNamesLibcuda() throws Exception {
        ChildJvm.Result r = probe(Map.of("LD_LIBRARY_PATH", ""));
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.value("driver")).isEqualTo("null");
        assertThat(r.output()).contains("problem NO_DRIVER: libcuda.so.1 not found (libjnicudart.so: libcuda.so.1: cannot open shared object file")
                .contains("Fix: install the NVIDIA driver");
        assertThat(r.value("memoised")).isEqualTo("true");
    }

    @Test
    void anOldDriverIsReportedWithBothCudaVersions() throws Exception {
        Path drv = StubLibraries.oldDriver(tmp.resolve("old-driver"), 12020);
        ChildJvm.Result r = probe(Map.of("LD_LIBRARY_PATH", drv.toString()));
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.value("driver")).isEqualTo("12020");
        assertThat(Integer.parseInt(r.value("runtime"))).isGreaterThanOrEqualTo(13000);
        assertThat(r.output()).containsPattern("problem DRIVER_TOO_OLD: the driver supports CUDA 12\\.2, the runtime is CUDA 13\\.\\d "
                + "\\(cudaGetDeviceCount: cudaErrorInsufficientDriver \\(35\\)");
        // and the build that does run on it (gpu/cuda-builds.json)
        assertThat(r.output()).contains("); use harness-cuda12.jar (libcudart.so.12; drivers supporting CUDA 12.0+,"
                + " R525 on). Fix: ");
    }

    @Test
    void aDriverThatSeesNoDeviceIsNoDevice() throws Exception {
        Path drv = StubLibraries.driverWithoutDevices(tmp.resolve("no-device"), 13000);
        ChildJvm.Result r = probe(Map.of("LD_LIBRARY_PATH", drv.toString()));
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.value("devices")).isEqualTo("0");
        assertThat(r.output()).contains("problem NO_DEVICE: cudaGetDeviceCount: cudaErrorNoDevice (100)")
                .contains("Fix: make a GPU visible");
    }

    @Test
    void anEmptyLibraryPathMeansNcclNotFound() throws Exception {
        Path drv = StubLibraries.oldDriver(tmp.resolve("driver-only"), 13000);
        ChildJvm.Result r = probe(Map.of("LD_LIBRARY_PATH", drv.toString()));
        assertThat(r.value("nccl")).isEqualTo("null");
        assertThat(r.output()).contains("problem NCCL_NOT_FOUND: libnccl.so.2 not found (libjninccl.so: libnccl.so.2: cannot open shared object file")
                .contains("Fix: pass --nccl-lib DIR");
    }

    @Test
    void anNcclThatExistsButCannotLoadIsReportedWithTheLinkersReasonNotAsMissing() throws Exception {
        Path drv = StubLibraries.oldDriver(tmp.resolve("driver-for-broken-nccl"), 13000);
        Path broken = StubLibraries.ncclMissingADependency(tmp.resolve("nccl-broken"));
        String file = broken.resolve("libnccl.so.2").toString();
        for (ChildJvm.Result r : List.of(probe(Map.of("LD_LIBRARY_PATH", drv + ":" + broken)),
                probe(Map.of("LD_LIBRARY_PATH", drv.toString()), broken.toString()))) {
            assertThat(r.exitCode()).isEqualTo(3);
            assertThat(r.output()).doesNotContain("NCCL_NOT_FOUND")
                    .contains("problem NCCL_LOAD_FAILED: " + file + " exists but did not load: libnccl-needs-this.so:"
                            + " cannot open shared object file")
                    .contains("Fix: the file is there but the dynamic linker refused it");
        }
        // Not an ELF file at all: the same, with the linker's words for it
        Path text = java.nio.file.Files.createDirectories(tmp.resolve("nccl-text"));
        java.nio.file.Files.writeString(text.resolve("libnccl.so.2"), "not a library\n".repeat(40));
        assertThat(probe(Map.of("LD_LIBRARY_PATH", drv + ":" + text)).output())
                .contains("problem NCCL_LOAD_FAILED: " + text.resolve("libnccl.so.2") + " exists but did not load:"
                        + " invalid ELF header");
    }

    @Test
    void ncclLibPointsTheLoaderAtADirectoryAndTheRunTimeVersionIsRead() throws Exception {
        Path drv = StubLibraries.oldDriver(tmp.resolve("driver-for-nccl"), 13000);
        Path nccl = StubLibraries.nccl(tmp.resolve("nccl-2.18.5"), 21805);
        ChildJvm.Result r = probe(Map.of("LD_LIBRARY_PATH", drv.toString()), nccl.toString());
        assertThat(r.value("nccl")).isEqualTo("2.18.5");
        assertThat(r.value("ncclFile")).isEqualTo(nccl.resolve("libnccl.so.2").toString());
        assertThat(r.output()).doesNotContain("NCCL_NOT_FOUND").doesNotContain("NCCL_TOO_OLD");
    }

    @Test
    void anNcclBelowTheBaselineIsTooOldAndTheOldVersionEncodingIsDecoded() throws Exception {
        Path drv = StubLibraries.oldDriver(tmp.resolve("driver-for-old-nccl"), 13000);
        Path nccl = StubLibraries.nccl(tmp.resolve("nccl-2.8.4"), 2804);
        ChildJvm.Result r = probe(Map.of("LD_LIBRARY_PATH", drv + ":" + nccl));
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.value("nccl")).isEqualTo("2.8.4");
        assertThat(r.output()).contains("problem NCCL_TOO_OLD: loaded NCCL 2.8.4 from " + nccl.resolve("libnccl.so.2")
                + " is older than 2.9.0");
    }

    private static ChildJvm.Result probe(Map<String, String> env, String... args) throws Exception {
        // Outside @TempDir: the cache holds symlinks to system libraries, which JUnit warns about deleting.
        Path caches = java.nio.file.Files.createDirectories(Path.of("target", "child-javacpp-cache"));
        Path cache = java.nio.file.Files.createTempDirectory(caches.toAbsolutePath(), "cache");
        ChildJvm.Result r = ChildJvm.run(ProbeChild.class, env, cache, args);
        System.out.println("--- probe with " + env + " " + String.join(" ", args) + "\n" + r.output());
        return r;
    }

    private static String ldconfig() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("/sbin/ldconfig", "-p").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }
}
