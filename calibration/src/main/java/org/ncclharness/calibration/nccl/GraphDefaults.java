package org.ncclharness.calibration.nccl;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What NCCL's graph search would find when a dataset does not say ({@code nccl/graph-defaults.json}): each GPU's
 * compute capability, and per class and link type the ring channel count and per-channel bandwidth.
 */
public record GraphDefaults(String about, String source, List<Gpu> gpus, List<Ring> ring, double netPerChannelGBps,
                            String netSource) {

    private static volatile GraphDefaults bundled;

    /** GPU model substrings and their SM version. */
    public record Gpu(List<String> match, int sm) {
    }

    /** Ring channels and per-channel bandwidth for a class ({@code *}: any) and link ({@code NVLINK}, {@code PCI}). */
    public record Ring(@JsonProperty("class") String cls, String link, int channels, double perChannelGBps,
                       String source) {
    }

    public static GraphDefaults bundled() {
        GraphDefaults g = bundled;
        if (g == null) {
            g = NcclResource.read("/nccl/graph-defaults.json", GraphDefaults.class, "NCCL graph defaults");
            bundled = g;
        }
        return g;
    }

    /** The SM version of a GPU model string, empty for a GPU NCCL's tables do not cover (AMD, unnamed). */
    public Optional<Integer> sm(String gpuModel) {
        if (gpuModel == null) {
            return Optional.empty();
        }
        String up = gpuModel.toUpperCase(Locale.ROOT);
        return gpus.stream().filter(g -> g.match().stream().anyMatch(up::contains)).map(Gpu::sm).findFirst();
    }

    /** The ring default for a class and link type. */
    public Optional<Ring> ring(GpuClass c, String link) {
        return ring.stream().filter(r -> r.link().equals(link) && (r.cls().equals(c.label()) || r.cls().equals("*")))
                .findFirst();
    }
}
