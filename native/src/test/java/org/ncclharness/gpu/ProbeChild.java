package org.ncclharness.gpu;

import java.nio.file.Path;

/** Runs the real probe in a child JVM whose library path the test controls; prints one fact per line. */
public final class ProbeChild {
    private ProbeChild() {
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            NcclLibrary.configure(Path.of(args[0]));
        }
        GpuProbe p = Gpus.probe();
        System.out.println("driver=" + p.driverVersion());
        System.out.println("runtime=" + p.runtimeVersion());
        System.out.println("nccl=" + p.ncclVersion());
        System.out.println("ncclFile=" + p.ncclFile());
        System.out.println("devices=" + p.devices().size());
        // A second probe must answer the same without touching the half-initialised bindings again.
        System.out.println("memoised=" + (Gpus.probe() == p));
        p.problems().forEach(pr -> System.out.println("problem " + pr.oneLine()));
        System.exit(p.ok() ? 0 : 3);
    }
}
