package org.ncclharness.calibration.hardware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The interconnect inside a GPU domain as far as the device name tells it ({@code hardware/gpu-fabrics.json}):
 * an SXM H100 is on NVLink4, a PCIe card tells nothing. A live sweep uses it when the user names no
 * interconnect, and says that it did.
 */
public final class GpuFabrics {

    private static volatile GpuFabrics bundled;

    private final List<Rule> rules;

    /** One rule: the first whose pattern is found in the name decides; a null interconnect means "cannot tell". */
    record Rule(Pattern pattern, String intra, String source) {
    }

    GpuFabrics(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public static GpuFabrics bundled() {
        GpuFabrics g = bundled;
        if (g == null) {
            synchronized (GpuFabrics.class) {
                if (bundled == null) {
                    bundled = load();
                }
                g = bundled;
            }
        }
        return g;
    }

    /** The interconnect name (vocabulary of interconnects.json), or empty when the name does not tell. */
    public Optional<String> intraFor(String deviceName) {
        if (deviceName == null) {
            return Optional.empty();
        }
        for (Rule r : rules) {
            if (r.pattern().matcher(deviceName).find()) {
                return Optional.ofNullable(r.intra());
            }
        }
        return Optional.empty();
    }

    private static GpuFabrics load() {
        try (InputStream in = GpuFabrics.class.getResourceAsStream("/hardware/gpu-fabrics.json")) {
            JsonNode root = new ObjectMapper().readTree(in);
            List<Rule> rules = new ArrayList<>();
            HardwareFacts facts = HardwareFacts.bundled();
            for (JsonNode n : root.get("rules")) {
                String intra = n.get("intra").isNull() ? null : n.get("intra").asText();
                if (intra != null && facts.interconnect(intra).isEmpty()) {
                    throw new IllegalStateException("gpu-fabrics.json names unknown interconnect " + intra);
                }
                rules.add(new Rule(Pattern.compile(n.get("pattern").asText()), intra, n.get("source").asText()));
            }
            return new GpuFabrics(rules);
        } catch (IOException e) {
            throw new UncheckedIOException("hardware/gpu-fabrics.json is not readable", e);
        }
    }
}
