package org.ncclharness.harness.doctor;

import java.nio.file.Path;
import java.util.Map;
import org.ncclharness.harness.VersionInfo;

/** The one place that decides which {@link GpuInfoSource} the commands use. */
public final class GpuInfoSources {

    private GpuInfoSources() {
    }

    public static GpuInfoSource current() {
        Map<String, String> env = System.getenv();
        return new DriverFilesGpuInfo(Path.of("/proc/driver/nvidia"), LinkerPath.dirs(env, Path.of("/etc/ld.so.conf")),
                env, VersionInfo.properties().getProperty("cudaPresets", "unknown"));
    }
}
