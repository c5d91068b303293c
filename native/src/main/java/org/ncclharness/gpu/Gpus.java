package org.ncclharness.gpu;

import static org.bytedeco.cuda.global.cudart.cudaDevAttrComputeCapabilityMajor;
import static org.bytedeco.cuda.global.cudart.cudaDevAttrComputeCapabilityMinor;
import static org.bytedeco.cuda.global.cudart.cudaDevAttrMultiProcessorCount;
import static org.bytedeco.cuda.global.cudart.cudaDeviceGetAttribute;
import static org.bytedeco.cuda.global.cudart.cudaDeviceGetPCIBusId;
import static org.bytedeco.cuda.global.cudart.cudaDriverGetVersion;
import static org.bytedeco.cuda.global.cudart.cudaGetDeviceCount;
import static org.bytedeco.cuda.global.cudart.cudaGetDeviceProperties;
import static org.bytedeco.cuda.global.cudart.cudaRuntimeGetVersion;
import static org.bytedeco.cuda.global.nccl.ncclGetVersion;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.bytedeco.cuda.cudart.cudaDeviceProp;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.javacpp.Loader;

/**
 * The one place the JVM first touches the CUDA runtime and NCCL bindings. Every missing piece becomes a
 * {@link ProbeProblem}; nothing here throws for an environment problem and nothing can kill the JVM:
 *
 * <ul>
 *   <li>A missing {@code libcuda.so.1}, {@code libcudart.so.13} or {@code libnccl.so.2} surfaces as an
 *       {@link UnsatisfiedLinkError} on the first touch and a {@link NoClassDefFoundError} ("Could not
 *       initialize class") on every later one. Both are {@link LinkageError}s, caught here and only here;
 *       the result is memoised, because the second error has lost the name of the missing file.</li>
 *   <li>Only {@code ncclGetVersion} is called on NCCL, which every NCCL 2.x exports; anything newer is gated on
 *       the version it returns ({@link NcclFeature}).</li>
 * </ul>
 *
 * NCCL is probed even when the CUDA side has a problem (its loading only needs the driver library to
 * resolve), so one run names every missing piece.
 */
public final class Gpus {
    private static GpuProbe cached;

    private Gpus() {
    }

    /** Probes once per JVM; later calls return the same answer. */
    public static synchronized GpuProbe probe() {
        if (cached == null) {
            cached = probeNow();
        }
        return cached;
    }

    private static GpuProbe probeNow() {
        NcclLibrary.prepareLoader();
        List<ProbeProblem> problems = new ArrayList<>();
        try {
            Loader.load(cudart.class);
        } catch (LinkageError e) {
            problems.add(classifyCudaLinkError(e));
            return new GpuProbe(null, null, null, List.of(), problems, null);
        }
        int[] driver = {0};
        int[] runtime = {0};
        check(cudaDriverGetVersion(driver), "cudaDriverGetVersion", problems);
        check(cudaRuntimeGetVersion(runtime), "cudaRuntimeGetVersion", problems);
        Integer driverVersion = driver[0] > 0 ? driver[0] : null;
        Integer runtimeVersion = runtime[0] > 0 ? runtime[0] : null;
        List<GpuDevice> devices = probeDevices(driverVersion, runtimeVersion, problems);
        if (driverVersion != null) {
            // a driver too old for this jar's runtime may still run another build: say which (gpu/cuda-builds.json)
            CudaBuilds.current().flatMap(b -> CudaBuilds.mismatch(b, driverVersion)).ifPresent(m -> {
                int seen = problems.stream().map(ProbeProblem::reason).toList().indexOf(ProbeFailure.DRIVER_TOO_OLD);
                if (seen >= 0) { // the runtime said so itself: add which build runs here
                    problems.set(seen, new ProbeProblem(ProbeFailure.DRIVER_TOO_OLD, problems.get(seen).detail()
                            + "; " + CudaBuilds.advice(driverVersion)));
                } else {
                    problems.add(0, new ProbeProblem(ProbeFailure.DRIVER_TOO_OLD, m));
                }
            });
        }

        NcclVersion ncclVersion = null;
        String ncclFile = null;
        try {
            Loader.load(nccl.class);
            int[] code = {0};
            int rc = ncclGetVersion(code);
            if (rc != 0 || code[0] <= 0) {
                problems.add(new ProbeProblem(ProbeFailure.NCCL_NOT_FOUND,
                        "ncclGetVersion returned " + rc + " with version code " + code[0]));
            } else {
                ncclVersion = NcclVersion.fromCode(code[0]);
                ncclFile = mappedLibrary(NcclLibrary.SONAME).orElse(null);
                if (!NcclFeature.BASELINE.isAvailable(ncclVersion)) {
                    problems.add(new ProbeProblem(ProbeFailure.NCCL_TOO_OLD, "loaded NCCL " + ncclVersion
                            + (ncclFile == null ? "" : " from " + ncclFile) + " is older than "
                            + NcclFeature.BASELINE.since() + ", the oldest the harness supports ("
                            + NcclFeature.BASELINE.what() + ")"));
                }
            }
        } catch (LinkageError e) {
            problems.add(ncclLoadProblem(e, NcclLibrary.candidate(System.getenv("LD_LIBRARY_PATH"))));
        }
        return new GpuProbe(driverVersion, runtimeVersion, ncclVersion, devices, problems, ncclFile);
    }

    private static List<GpuDevice> probeDevices(Integer driverVersion, Integer runtimeVersion,
                                                List<ProbeProblem> problems) {
        int[] count = {0};
        int rc = cudaGetDeviceCount(count);
        if (rc != 0) {
            problems.add(classifyCudaInitError(rc, driverVersion, runtimeVersion));
            return List.of();
        }
        if (count[0] == 0) {
            problems.add(new ProbeProblem(ProbeFailure.NO_DEVICE, "cudaGetDeviceCount found 0 devices"));
            return List.of();
        }
        List<GpuDevice> devices = new ArrayList<>();
        for (int d = 0; d < count[0]; d++) {
            cudaDeviceProp prop = new cudaDeviceProp();
            int[] major = {0};
            int[] minor = {0};
            int[] sms = {0};
            byte[] bus = new byte[64];
            int err = cudaGetDeviceProperties(prop, d);
            err = err != 0 ? err : cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, d);
            err = err != 0 ? err : cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, d);
            err = err != 0 ? err : cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, d);
            err = err != 0 ? err : cudaDeviceGetPCIBusId(bus, bus.length, d);
            if (err != 0) {
                problems.add(new ProbeProblem(ProbeFailure.CUDA_INIT_FAILED,
                        "device " + d + ": " + CudaErrors.describe(err)));
                prop.close();
                continue;
            }
            devices.add(new GpuDevice(d, prop.name().getString(StandardCharsets.UTF_8), cString(bus),
                    prop.totalGlobalMem(), major[0], minor[0], sms[0]));
            prop.close();
        }
        return devices;
    }

    private static ProbeProblem classifyCudaInitError(int rc, Integer driverVersion, Integer runtimeVersion) {
        String what = "cudaGetDeviceCount: " + CudaErrors.describe(rc);
        return switch (rc) {
            case CudaErrors.INSUFFICIENT_DRIVER, CudaErrors.CALL_REQUIRES_NEWER_DRIVER -> new ProbeProblem(ProbeFailure.DRIVER_TOO_OLD,
                    "the driver supports CUDA " + GpuProbe.cudaVersionText(driverVersion) + ", the runtime is CUDA "
                            + GpuProbe.cudaVersionText(runtimeVersion) + " (" + what + ")");
            case CudaErrors.STUB_LIBRARY -> new ProbeProblem(ProbeFailure.NO_DRIVER,
                    "the libcuda.so.1 found is the CUDA toolkit's stub, not a driver (" + what + ")");
            case CudaErrors.NO_DEVICE -> new ProbeProblem(ProbeFailure.NO_DEVICE, what);
            default -> new ProbeProblem(ProbeFailure.CUDA_INIT_FAILED, what);
        };
    }

    private static ProbeProblem classifyCudaLinkError(LinkageError e) {
        String msg = rootMessage(e);
        if (msg.contains("libcuda.so")) {
            return new ProbeProblem(ProbeFailure.NO_DRIVER, "libcuda.so.1 not found (" + msg + ")");
        }
        return new ProbeProblem(ProbeFailure.CUDA_RUNTIME_NOT_FOUND, "the CUDA runtime bindings did not load (" + msg + ")");
    }

    /**
     * JavaCPP's error says only that its JNI library did not link, so a libnccl.so.2 that exists but cannot be
     * loaded (it needs a newer glibc, a missing libcudart, or is not an ELF file) read as "not found". Loading the
     * file that would have been used ({@code --nccl-lib}'s, else the first on LD_LIBRARY_PATH) gives the
     * dynamic linker's own reason.
     */
    static ProbeProblem ncclLoadProblem(LinkageError e, Optional<Path> candidate) {
        if (candidate.isEmpty()) {
            return new ProbeProblem(ProbeFailure.NCCL_NOT_FOUND, NcclLibrary.SONAME + " not found (" + rootMessage(e)
                    + ")" + NcclLibrary.configuredPath().map(p -> "; --nccl-lib path: " + p).orElse(""));
        }
        String file = candidate.get().toAbsolutePath().toString();
        try {
            System.load(file);
        } catch (UnsatisfiedLinkError own) {
            String why = String.valueOf(own.getMessage());
            // "/dir/libnccl.so.2: libfoo.so: cannot open ..." → "libfoo.so: cannot open ..."
            while (why.startsWith(file + ": ")) {
                why = why.substring(file.length() + 2);
            }
            return new ProbeProblem(ProbeFailure.NCCL_LOAD_FAILED, file + " exists but did not load: " + why);
        }
        return new ProbeProblem(ProbeFailure.NCCL_LOAD_FAILED, file + " loads, but the NCCL bindings did not link"
                + " against it (" + rootMessage(e) + ")");
    }

    private static void check(int rc, String call, List<ProbeProblem> problems) {
        if (rc != 0) {
            problems.add(new ProbeProblem(ProbeFailure.CUDA_INIT_FAILED, call + ": " + CudaErrors.describe(rc)));
        }
    }

    /**
     * The innermost message of a loader error: JavaCPP wraps the dynamic linker's "libX: cannot open shared
     * object file" in "no jniY in java.library.path"; the inner one names the missing file.
     */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        String best = String.valueOf(e.getMessage());
        while (t != null) {
            if (t.getMessage() != null && t.getMessage().contains("cannot open shared object file")) {
                best = t.getMessage();
            }
            t = t.getCause() == t ? null : t.getCause();
        }
        int slash = best.lastIndexOf(".so: ");
        // ".../libjnicudart.so: libcuda.so.1: cannot open ..." → "libjnicudart.so: libcuda.so.1: cannot open ..."
        if (slash >= 0) {
            int start = best.lastIndexOf('/', slash);
            best = best.substring(start + 1);
        }
        return best;
    }

    /** The file a loaded library came from, read from this process's memory map. */
    static Optional<String> mappedLibrary(String soname) {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return Optional.empty();
        }
        try (Stream<String> lines = Files.lines(maps)) {
            return lines.map(l -> l.substring(l.lastIndexOf(' ') + 1))
                    .filter(p -> p.startsWith("/") && Path.of(p).getFileName().toString().startsWith(soname.replace(".so.2", ".so")))
                    .findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }
}
