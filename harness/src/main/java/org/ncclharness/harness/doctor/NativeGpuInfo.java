package org.ncclharness.harness.doctor;

import java.util.List;
import org.ncclharness.gpu.CudaBuild;
import org.ncclharness.gpu.CudaBuilds;
import org.ncclharness.gpu.GpuDevice;
import org.ncclharness.gpu.GpuProbe;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.exit.ExitCode;

/** GPU facts from the native bridge's probe: the driver, CUDA runtime and NCCL as they load in this JVM. */
public final class NativeGpuInfo implements GpuInfoSource {

    @Override
    public GpuFacts probe() {
        GpuProbe p = Gpus.probe();
        List<String> busIds = p.devices().stream().map(GpuDevice::pciBusId).toList();
        String driver = p.driverVersion() == null ? null
                : "supporting CUDA " + GpuProbe.cudaVersionText(p.driverVersion());
        String cuda = p.runtimeVersion() == null ? "not loaded" : GpuProbe.cudaVersionText(p.runtimeVersion());
        String nccl = p.ncclVersion() == null ? null
                : p.ncclVersion() + (p.ncclFile() == null ? "" : " (" + p.ncclFile() + ")");
        List<Problem> problems = p.problems().stream()
                .map(pp -> new Problem(ExitCode.ENVIRONMENT, pp.reason() + ": " + pp.detail(), pp.fix()))
                .toList();
        return new GpuFacts(busIds, driver, cuda, nccl,
                "probed by the native bridge: cudaDriverGetVersion, cudaRuntimeGetVersion, ncclGetVersion",
                build(p.driverVersion()), problems);
    }

    /** {@code harness.jar (…); for this driver (CUDA 12.4): harness-cuda12.jar}, from gpu/cuda-builds.json. */
    static String build(Integer driverCudaCode) {
        String self = CudaBuilds.current().map(CudaBuild::describe).orElse("a build of unknown CUDA bindings");
        if (driverCudaCode == null) {
            return self;
        }
        return self + "; for this driver (CUDA " + GpuProbe.cudaVersionText(driverCudaCode) + "): "
                + CudaBuilds.forDriver(driverCudaCode).map(CudaBuild::jar).orElse("none, the driver is too old");
    }
}
