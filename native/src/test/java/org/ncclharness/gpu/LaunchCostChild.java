package org.ncclharness.gpu;

import java.nio.file.Path;

/** Measures {@link LaunchCost} in a child JVM whose library path the test controls; prints one fact per line. */
public final class LaunchCostChild {
    private LaunchCostChild() {
    }

    public static void main(String[] args) {
        NcclLibrary.configure(Path.of(args[0]));
        GpuProbe p = Gpus.probe();
        System.out.println("nccl=" + p.ncclVersion());
        LaunchCost c = LaunchCost.measure(2_000, 200_000);
        System.out.println("rc=" + c.ncclResult());
        System.out.println("cold=" + c.coldNsPerCall());
        System.out.println("warm=" + c.warmNsPerCall());
        System.exit(0);
    }
}
