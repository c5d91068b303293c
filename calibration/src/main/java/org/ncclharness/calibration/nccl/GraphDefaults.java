package org.ncclharness.calibration.nccl;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
            ObjectMapper m = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
            try (InputStream in = GraphDefaults.class.getResourceAsStream("/nccl/graph-defaults.json")) {
                if (in == null) {
                    throw new IOException("/nccl/graph-defaults.json is missing from the classpath");
                }
                g = m.readValue(in, GraphDefaults.class);
            } catch (IOException e) {
                throw new UncheckedIOException("bundled NCCL graph defaults unreadable: " + e.getMessage(), e);
            }
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
