package org.ncclharness.gpu;

import java.util.Optional;

/**
 * Why a machine cannot run a measurement, each with the one-line fix a platform engineer can act on. The
 * order is the order the pieces are needed in: driver, runtime, device, NCCL.
 *
 * <p>The driver branch, CUDA version and runtime a fix names are the running jar's ({@link CudaBuilds#current()},
 * {@code gpu/cuda-builds.json}): harness-cuda12.jar asks for a CUDA 12 runtime and an R525 driver, not harness.jar's.
 * Written as {@code {driver}}, {@code {cuda}} (the major version) and {@code {runtime}} in the texts below.
 */
public enum ProbeFailure {
    NO_DRIVER("install the NVIDIA driver ({driver} or newer for CUDA {cuda}), or add the directory holding libcuda.so.1 to LD_LIBRARY_PATH"),
    DRIVER_TOO_OLD("upgrade the NVIDIA driver to {driver} or newer (CUDA {cuda} runtimes need it); nvidia-smi shows the installed one"),
    CUDA_RUNTIME_NOT_FOUND("install the CUDA {cuda} runtime ({runtime}) or add its directory, e.g. /usr/local/cuda/lib64, to LD_LIBRARY_PATH"),
    NO_DEVICE("make a GPU visible: check nvidia-smi, CUDA_VISIBLE_DEVICES and the container's --gpus flag"),
    CUDA_INIT_FAILED("check nvidia-smi and dmesg for the GPU's state; the CUDA error above names the cause"),
    NCCL_NOT_FOUND("pass --nccl-lib DIR with the directory holding libnccl.so.2 (pip nvidia-nccl-cu{cuda} puts it in site-packages/nvidia/nccl/lib), or add it to LD_LIBRARY_PATH"),
    NCCL_LOAD_FAILED("the file is there but the dynamic linker refused it for the reason given: ldd on it lists what it needs; install an NCCL built for this system's glibc and CUDA (e.g. pip install nvidia-nccl-cu{cuda}) and point --nccl-lib at it"),
    NCCL_TOO_OLD("install a newer NCCL (pip install -U nvidia-nccl-cu{cuda}, or the libnccl2 package) and point --nccl-lib at it");

    private final String fix;

    ProbeFailure(String fix) {
        this.fix = fix;
    }

    /** What to do about it, in one line, with the running jar's driver and runtime. */
    public String fix() {
        return fix(CudaBuilds.current());
    }

    /**
     * What to do about it for {@code build}; without one (bindings of no known build on the class path) the fix
     * names no version rather than another build's.
     */
    public String fix(Optional<CudaBuild> build) {
        return build.map(b -> fix.replace("{driver}", b.driverBranch()).replace("{cuda}", b.cudaMajor())
                .replace("{runtime}", b.runtime()))
                .orElseGet(() -> fix.replace("{driver} or newer for CUDA {cuda}", "one that supports this jar's CUDA")
                        .replace("{driver} or newer (CUDA {cuda} runtimes need it)", "a newer one")
                        .replace("CUDA {cuda} runtime ({runtime})", "CUDA runtime this jar was built for")
                        .replace("nvidia-nccl-cu{cuda}", "nvidia-nccl-cuXX (XX the CUDA major version)"));
    }
}
