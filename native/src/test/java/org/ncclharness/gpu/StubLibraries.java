package org.ncclharness.gpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds tiny shared objects with gcc that stand in for the NVIDIA driver and for NCCL, so the real
 * bindings and the real CUDA runtime meet each situation a machine without a GPU can present. They are
 * synthetic on purpose: each exports only what makes the runtime take one specific path.
 */
final class StubLibraries {
    private StubLibraries() {
    }

    /** A libcuda.so.1 whose cuDriverGetVersion reports {@code version} and nothing else works. */
    static Path oldDriver(Path dir, int version) throws IOException, InterruptedException {
        return build(dir, "libcuda.so.1", """
                int cuDriverGetVersion(int *v) { *v = %d; return 0; }
                int cuInit(unsigned int flags) { return 0; }
                """.formatted(version));
    }

    /**
     * A libcuda.so.1 of a new enough driver that sees no device: cuInit returns CUDA_ERROR_NO_DEVICE (100).
     * The CUDA 13 runtime fetches entry points through cuGetProcAddress, so that is answered from this
     * library's own symbols.
     */
    static Path driverWithoutDevices(Path dir, int version) throws IOException, InterruptedException {
        return build(dir, "libcuda.so.1", """
                #define _GNU_SOURCE
                #include <dlfcn.h>
                int cuDriverGetVersion(int *v) { *v = %d; return 0; }
                int cuInit(unsigned int flags) { return 100; }
                int cuDeviceGetCount(int *c) { *c = 0; return 100; }
                int cuGetProcAddress_v2(const char *sym, void **pfn, int ver, unsigned long long flags, int *status) {
                  void *f = dlsym(RTLD_DEFAULT, sym);
                  if (status) *status = f ? 0 : 1;
                  *pfn = f;
                  return f ? 0 : 500;
                }
                int cuGetProcAddress(const char *sym, void **pfn, int ver, unsigned long long flags) {
                  return cuGetProcAddress_v2(sym, pfn, ver, flags, 0);
                }
                """.formatted(version), "-ldl");
    }

    /** A libnccl.so.2 that exports only ncclGetVersion, answering {@code code}. */
    static Path nccl(Path dir, int code) throws IOException, InterruptedException {
        return build(dir, "libnccl.so.2", "int ncclGetVersion(int *v) { *v = %d; return 0; }\n".formatted(code));
    }

    /**
     * A libnccl.so.2 of {@code code} whose ncclAllReduce returns ncclInvalidArgument (4) at once, as a real NCCL does
     * for a null communicator: the launch path through the real binding, with no GPU behind it.
     */
    static Path ncclRejectingLaunches(Path dir, int code) throws IOException, InterruptedException {
        return build(dir, "libnccl.so.2", """
                int ncclGetVersion(int *v) { *v = %d; return 0; }
                int ncclAllReduce(const void *s, void *r, unsigned long n, int t, int op, void *comm, void *st) {
                  return comm ? 0 : 4;
                }
                """.formatted(code));
    }

    /**
     * A libnccl.so.2 that cannot load: linked against {@code libnccl-needs-this.so}, which is then deleted, as a
     * library built for another system misses what it was linked with.
     */
    static Path ncclMissingADependency(Path dir) throws IOException, InterruptedException {
        Path dep = build(dir.resolve("dep"), "libnccl-needs-this.so", "int needed(void) { return 1; }\n");
        build(dir, "libnccl.so.2", "int needed(void);\nint ncclGetVersion(int *v) { *v = needed(); return 0; }\n",
                "-L" + dep, "-lnccl-needs-this");
        Files.delete(dep.resolve("libnccl-needs-this.so"));
        return dir;
    }

    private static Path build(Path dir, String soname, String source, String... libs)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path c = dir.resolve(soname + ".c");
        Files.writeString(c, source);
        Path so = dir.resolve(soname);
        List<String> cmd = new java.util.ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-Wl,-soname," + soname,
                "-o", so.toString(), c.toString()));
        cmd.addAll(List.of(libs));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) { // only a hang takes 10 minutes
            p.destroyForcibly();
            throw new AssertionError("gcc failed for " + soname + ": " + new String(p.getInputStream().readAllBytes()));
        }
        return dir;
    }
}
