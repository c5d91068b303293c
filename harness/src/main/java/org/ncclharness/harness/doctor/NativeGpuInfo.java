package org.ncclharness.harness.doctor;

import java.util.List;
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
                "probed by the native bridge: cudaDriverGetVersion, cudaRuntimeGetVersion, ncclGetVersion", problems);
    }
}
