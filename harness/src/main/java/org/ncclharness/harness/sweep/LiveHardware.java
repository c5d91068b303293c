package org.ncclharness.harness.sweep;

import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.hardware.GpuFabrics;
import org.ncclharness.calibration.measure.Hardware;

/**
 * What a live sweep knows of its hardware: the GPUs and hosts it ran on, the interconnect the user named, and,
 * when they named none, the NVLink generation the device name tells (said in a heading line, never silently).
 * On one host the named interconnect is the one inside it; across hosts it is the network between them.
 */
final class LiveHardware {

    private LiveHardware() {
    }

    static Hardware of(String gpuName, int ranks, int hosts, String named, GpuFabrics fabrics, List<String> heading) {
        Optional<String> fromName = fabrics.intraFor(gpuName);
        if (hosts == 1) {
            String intra = named != null ? named : fromName.orElse(null);
            if (named == null && intra != null) {
                heading.add("# interconnect " + intra + " taken from the GPU name '" + gpuName
                        + "' (hardware/gpu-fabrics.json); pass --interconnect to name another");
            }
            return new Hardware(gpuName, ranks, 1, ranks, 1, intra, null);
        }
        String intra = fromName.orElse(null);
        if (intra != null) {
            heading.add("# NVLink domain interconnect " + intra + " taken from the GPU name '" + gpuName
                    + "' (hardware/gpu-fabrics.json)");
        }
        return new Hardware(gpuName, ranks, hosts, ranks % hosts == 0 ? ranks / hosts : null, hosts, intra, named);
    }
}
