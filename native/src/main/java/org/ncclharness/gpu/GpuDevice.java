package org.ncclharness.gpu;

/**
 * One CUDA device as the runtime sees it (indices follow CUDA_VISIBLE_DEVICES).
 *
 * @param pciBusId      {@code cudaDeviceGetPCIBusId}, e.g. {@code 0000:18:00.0}
 * @param totalMemBytes {@code cudaDeviceProp.totalGlobalMem}
 * @param ccMajor       compute capability, from {@code cudaDeviceGetAttribute} (CUDA 13 removed several
 *                      {@code cudaDeviceProp} fields, so attributes are the stable route)
 */
public record GpuDevice(int index, String name, String pciBusId, long totalMemBytes, int ccMajor, int ccMinor,
                        int multiProcessors) {

    public String computeCapability() {
        return ccMajor + "." + ccMinor;
    }
}
