package org.ncclharness.gpu;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.bytedeco.javacpp.Loader;

/**
 * Which harness jar a machine needs, from the CUDA version its driver supports: the builds and their driver
 * thresholds are data ({@code gpu/cuda-builds.json}), so a new CUDA major version is a line there. This jar is
 * told apart from the others by its bindings' preset version.
 */
public final class CudaBuilds {
    static final String RESOURCE = "/gpu/cuda-builds.json";
    private static final List<CudaBuild> ALL = read();

    private CudaBuilds() {
    }

    record File(String about, List<CudaBuild> builds) {
    }

    private static List<CudaBuild> read() {
        try (InputStream in = CudaBuilds.class.getResourceAsStream(RESOURCE)) {
            return new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(in, File.class).builds();
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE + " is unreadable", e);
        }
    }

    public static List<CudaBuild> all() {
        return ALL;
    }

    /** The newest build whose runtime the driver supports, or empty when it supports none of them. */
    public static Optional<CudaBuild> forDriver(int driverCudaCode) {
        return ALL.stream().filter(b -> b.minDriverCode() <= driverCudaCode)
                .max(Comparator.comparingInt(CudaBuild::minDriverCode));
    }

    /** The build this class path is, from the preset version of the CUDA bindings on it. */
    public static Optional<CudaBuild> current() {
        String preset;
        try {
            preset = Loader.getVersion("org.bytedeco", "cuda");
        } catch (IOException e) {
            return Optional.empty();
        }
        return ALL.stream().filter(b -> b.preset().equals(preset)).findFirst();
    }

    /**
     * What to do when this build cannot run on a driver supporting {@code driverCudaCode}: one sentence naming the
     * build it needs, or empty when this build fits (a newer driver runs an older runtime too).
     */
    public static Optional<String> mismatch(CudaBuild running, int driverCudaCode) {
        if (running.minDriverCode() <= driverCudaCode) {
            return Optional.empty();
        }
        return Optional.of("the driver supports CUDA " + GpuProbe.cudaVersionText(driverCudaCode) + ", below "
                + running.jar() + "'s CUDA " + running.minDriverCuda() + ": " + advice(driverCudaCode));
    }

    /** {@code use harness-cuda12.jar (…)}, or the driver to install where no build runs. */
    public static String advice(int driverCudaCode) {
        return forDriver(driverCudaCode).map(b -> "use " + b.describe())
                .orElse("no build of the harness runs on it: update the driver to " + ALL.stream()
                        .min(Comparator.comparingInt(CudaBuild::minDriverCode)).orElseThrow().driverBranch()
                        + " or newer");
    }
}
