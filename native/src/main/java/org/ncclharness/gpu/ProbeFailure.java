package org.ncclharness.gpu;

/**
 * Why a machine cannot run a measurement, each with the one-line fix a platform engineer can act on. The
 * order is the order the pieces are needed in: driver, runtime, device, NCCL.
 */
public enum ProbeFailure {
    NO_DRIVER("install the NVIDIA driver (R580 or newer for CUDA 13), or add the directory holding libcuda.so.1 to LD_LIBRARY_PATH"),
    DRIVER_TOO_OLD("upgrade the NVIDIA driver to R580 or newer (CUDA 13 runtimes need it); nvidia-smi shows the installed one"),
    CUDA_RUNTIME_NOT_FOUND("install the CUDA 13 runtime (libcudart.so.13) or add its directory, e.g. /usr/local/cuda/lib64, to LD_LIBRARY_PATH"),
    NO_DEVICE("make a GPU visible: check nvidia-smi, CUDA_VISIBLE_DEVICES and the container's --gpus flag"),
    CUDA_INIT_FAILED("check nvidia-smi and dmesg for the GPU's state; the CUDA error above names the cause"),
    NCCL_NOT_FOUND("pass --nccl-lib DIR with the directory holding libnccl.so.2 (pip nvidia-nccl-cu13 puts it in site-packages/nvidia/nccl/lib), or add it to LD_LIBRARY_PATH"),
    NCCL_LOAD_FAILED("the file is there but the dynamic linker refused it for the reason given: ldd on it lists what it needs; install an NCCL built for this system's glibc and CUDA (e.g. pip install nvidia-nccl-cu13) and point --nccl-lib at it"),
    NCCL_TOO_OLD("install a newer NCCL (pip install -U nvidia-nccl-cu13, or the libnccl2 package) and point --nccl-lib at it");

    private final String fix;

    ProbeFailure(String fix) {
        this.fix = fix;
    }

    /** What to do about it, in one line. */
    public String fix() {
        return fix;
    }
}
