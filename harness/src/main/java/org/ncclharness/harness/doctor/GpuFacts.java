package org.ncclharness.harness.doctor;

import java.util.List;

/**
 * What a rank can say about its GPUs without driving them.
 *
 * @param visibleBusIds PCI bus ids of the GPUs this process sees, in device order
 * @param driverVersion the NVIDIA driver version, or null without a driver
 * @param cudaVersion   the CUDA runtime version, as far as known
 * @param ncclVersion   the NCCL library version, or null without one
 * @param source        how the facts were obtained (for the user to judge them)
 * @param build         which harness jar this is and which one the driver needs, or null where unknown
 * @param problems      what prevents a GPU sweep here (exit code 3), and warnings
 */
public record GpuFacts(List<String> visibleBusIds, String driverVersion, String cudaVersion, String ncclVersion,
        String source, String build, List<Problem> problems) {

    public GpuFacts {
        visibleBusIds = List.copyOf(visibleBusIds);
        problems = List.copyOf(problems);
    }

    public int visibleCount() {
        return visibleBusIds.size();
    }
}
