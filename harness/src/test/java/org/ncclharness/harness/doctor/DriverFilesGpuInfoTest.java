package org.ncclharness.harness.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.ExitCode;

/** The driver-file probe against a fake /proc/driver/nvidia and linker path. */
class DriverFilesGpuInfoTest {

    @TempDir
    Path tmp;

    private Path proc() {
        return tmp.resolve("proc/driver/nvidia");
    }

    private Path lib() {
        return tmp.resolve("lib");
    }

    private void driver(String... busIdsAndUuids) throws Exception {
        Files.createDirectories(proc());
        Files.writeString(proc().resolve("version"), "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64"
                + "  560.35.03  Release Build  (dvs-builder@U16-I3-B03-4-3)  Fri Aug 16 21:42:42 UTC 2024\n"
                + "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
        for (int i = 0; i < busIdsAndUuids.length; i += 2) {
            Path g = Files.createDirectories(proc().resolve("gpus").resolve(busIdsAndUuids[i]));
            Files.writeString(g.resolve("information"), "Model: \t\t NVIDIA H200\nIRQ:   \t\t 0\nGPU UUID: \t "
                    + busIdsAndUuids[i + 1] + "\nBus Location: \t " + busIdsAndUuids[i] + "\n");
        }
    }

    private void libs(boolean cuda, boolean nccl) throws Exception {
        Files.createDirectories(lib());
        if (cuda) {
            Files.writeString(lib().resolve("libcuda.so.560.35.03"), "");
            Files.createSymbolicLink(lib().resolve("libcuda.so.1"), Path.of("libcuda.so.560.35.03"));
        }
        if (nccl) {
            Files.writeString(lib().resolve("libnccl.so.2.23.4"), "");
            Files.createSymbolicLink(lib().resolve("libnccl.so.2"), Path.of("libnccl.so.2.23.4"));
        }
    }

    private GpuFacts probe(Map<String, String> env) {
        return new DriverFilesGpuInfo(proc(), List.of(tmp.resolve("empty"), lib()), env, "13.3-9.25-1.5.14")
                .probe();
    }

    @Test
    void noDriverIsAnEnvironmentProblem() throws Exception {
        libs(false, false);
        GpuFacts f = probe(Map.of());
        assertThat(f.visibleCount()).isZero();
        assertThat(f.driverVersion()).isNull();
        assertThat(f.cudaVersion()).startsWith("13.3 ");
        assertThat(f.problems()).singleElement().satisfies(p -> {
            assertThat(p.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
            assertThat(p.what()).startsWith("no NVIDIA driver (").endsWith("libcuda.so.1 is not on the linker path)");
        });
    }

    @Test
    void aFullNodeHasNoProblems() throws Exception {
        driver("0000:3b:00.0", "GPU-aaaa-1111", "0000:19:00.0", "GPU-bbbb-2222");
        libs(true, true);
        GpuFacts f = probe(Map.of());
        assertThat(f.problems()).isEmpty();
        assertThat(f.driverVersion()).isEqualTo("560.35.03");
        assertThat(f.ncclVersion()).isEqualTo("2.23.4");
        assertThat(f.visibleBusIds()).containsExactly("0000:19:00.0", "0000:3b:00.0");
    }

    @Test
    void cudaVisibleDevicesSelectsByIndexOrUuidUpToTheFirstInvalidEntry() throws Exception {
        driver("0000:19:00.0", "GPU-aaaa-1111", "0000:3b:00.0", "GPU-bbbb-2222", "0000:5d:00.0", "GPU-cccc");
        libs(true, true);
        assertThat(probe(Map.of("CUDA_VISIBLE_DEVICES", "2,0")).visibleBusIds())
                .containsExactly("0000:5d:00.0", "0000:19:00.0");
        assertThat(probe(Map.of("CUDA_VISIBLE_DEVICES", "GPU-bbbb")).visibleBusIds())
                .containsExactly("0000:3b:00.0");
        assertThat(probe(Map.of("CUDA_VISIBLE_DEVICES", "1,7,0")).visibleBusIds()).containsExactly("0000:3b:00.0");
        GpuFacts none = probe(Map.of("CUDA_VISIBLE_DEVICES", ""));
        assertThat(none.visibleCount()).isZero();
        assertThat(none.problems()).singleElement().satisfies(p -> assertThat(p.what())
                .isEqualTo("no GPU visible to this process (CUDA_VISIBLE_DEVICES=)"));
    }

    @Test
    void missingNcclOrUserSpaceDriverIsSaidWithItsFix() throws Exception {
        driver("0000:19:00.0", "GPU-aaaa");
        libs(false, false);
        GpuFacts f = probe(Map.of());
        assertThat(f.problems()).extracting(Problem::what).containsExactly(
                "the NVIDIA kernel module is loaded but libcuda.so.1 is not on the linker path",
                "libnccl.so.2 (NCCL) is not on the linker path");
        assertThat(f.problems()).allMatch(p -> p.exitCode() == ExitCode.ENVIRONMENT && !p.fix().isBlank());
    }

    @Test
    void linkerPathReadsLdLibraryPathAndLdSoConfIncludes() throws Exception {
        Path conf = tmp.resolve("ld.so.conf");
        Path d = Files.createDirectories(tmp.resolve("ld.so.conf.d"));
        Files.writeString(conf, "# comment\ninclude " + d + "/*.conf\n/opt/extra\n");
        Files.writeString(d.resolve("cuda.conf"), "/usr/local/cuda/lib64\n");
        List<Path> dirs = LinkerPath.dirs(Map.of("LD_LIBRARY_PATH", "/a:/b"), conf);
        assertThat(dirs).startsWith(Path.of("/a"), Path.of("/b"), Path.of("/usr/local/cuda/lib64"),
                Path.of("/opt/extra")).contains(Path.of("/usr/lib/x86_64-linux-gnu"));
    }
}
