package org.ncclharness.gpu;

import java.util.List;
import java.util.Optional;

/**
 * What {@link Gpus#probe()} found. Every field the probe could not establish is null (versions) or empty
 * (devices); {@link #problems()} says why, in the order the pieces are needed.
 *
 * @param driverVersion  {@code cudaDriverGetVersion} (CUDA level of the driver, 13000 for 13.0), null if no driver
 * @param runtimeVersion {@code cudaRuntimeGetVersion} of the loaded libcudart, null if not loaded
 * @param ncclVersion    {@code ncclGetVersion} of the loaded libnccl.so.2, null if not loaded
 * @param ncclFile       the file libnccl.so.2 was mapped from (from /proc/self/maps), null if unknown
 */
public record GpuProbe(Integer driverVersion, Integer runtimeVersion, NcclVersion ncclVersion,
                       List<GpuDevice> devices, List<ProbeProblem> problems, String ncclFile) {

    public GpuProbe {
        devices = List.copyOf(devices);
        problems = List.copyOf(problems);
    }

    /** True when a measurement can run: driver, runtime, at least one device and a recent enough NCCL. */
    public boolean ok() {
        return problems.isEmpty();
    }

    public Optional<ProbeProblem> firstProblem() {
        return problems.stream().findFirst();
    }

    /** Throws the first problem as a {@link GpuEnvironmentException}; returns this when all is well. */
    public GpuProbe requireOk() {
        if (!problems.isEmpty()) {
            throw new GpuEnvironmentException(problems.get(0));
        }
        return this;
    }

    /** {@code 13000} → {@code 13.0}. */
    public static String cudaVersionText(Integer code) {
        return code == null ? "none" : (code / 1000) + "." + (code % 1000) / 10;
    }
}
