package org.ncclharness.calibration.hardware;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.format.JsonRecords;
import org.ncclharness.calibration.measure.InputException;

/**
 * The hardware facts the calibration compares with: interconnects, topologies and chip profiles, loaded from the
 * JSON resources under {@code hardware/} (facts live in data, not in code). Loading checks that every
 * interconnect names a known topology, that only one behind a switch names an in-network reduction, and that every
 * chip profile's published components add up to its α_step.
 */
public final class HardwareFacts {

    private static final String DIR = "/hardware/";
    private static final double SUM_TOLERANCE_US = 1e-9;
    private static volatile HardwareFacts bundled;

    private final Map<String, Interconnect> interconnects;
    private final Map<String, Topology> topologies;
    private final List<ChipProfile> chips;
    private final double naiveUr;
    private final List<String> vocabulary;

    HardwareFacts(List<Interconnect> interconnects, List<Topology> topologies, List<ChipProfile> chips,
                  double naiveUr) {
        Map<String, Topology> tops = new LinkedHashMap<>();
        topologies.forEach(t -> tops.put(t.name(), t));
        Map<String, Interconnect> ics = new LinkedHashMap<>();
        for (Interconnect ic : interconnects) {
            if (!tops.containsKey(ic.topology())) {
                throw new IllegalStateException("interconnect " + ic.name() + " names unknown topology "
                        + ic.topology());
            }
            // NVLS and SHARP reduce inside a switch: a fabric without one (a quad-GH200 board, an NVLink bridge)
            // cannot have them, whatever its link generation
            if (ic.inNetworkReduction() != null && !tops.get(ic.topology()).switched()) {
                throw new IllegalStateException("interconnect " + ic.name() + " names in-network reduction "
                        + ic.inNetworkReduction() + " on topology " + ic.topology() + ", which has no switch");
            }
            if (ics.put(ic.name(), ic) != null) {
                throw new IllegalStateException("interconnect " + ic.name() + " is listed twice");
            }
        }
        for (ChipProfile c : chips) {
            checkComponents(c);
        }
        this.interconnects = Collections.unmodifiableMap(ics);
        this.topologies = Collections.unmodifiableMap(tops);
        this.chips = List.copyOf(chips);
        this.naiveUr = naiveUr;
        this.vocabulary = List.copyOf(ics.keySet());
    }

    /** The facts shipped in the jar (loaded once). */
    public static HardwareFacts bundled() {
        HardwareFacts h = bundled;
        if (h == null) {
            synchronized (HardwareFacts.class) {
                if (bundled == null) {
                    bundled = load();
                }
                h = bundled;
            }
        }
        return h;
    }

    private static HardwareFacts load() {
        try {
            Interconnects ic = read("interconnects.json", Interconnects.class);
            return new HardwareFacts(ic.interconnects(), read("topologies.json", Topologies.class).topologies(),
                    read("chips.json", Chips.class).chips(), ic.naiveUr().value());
        } catch (IOException e) {
            throw new UncheckedIOException("bundled hardware facts are unreadable: " + e.getMessage(), e);
        }
    }

    /** The layouts of the three files. */
    private record Interconnects(String about, NaiveUr naiveUr, List<Interconnect> interconnects) {
    }

    private record NaiveUr(double value, String source) {
    }

    private record Topologies(String about, List<Topology> topologies) {
    }

    private record Chips(String about, List<ChipProfile> chips) {
    }

    private static <T> T read(String name, Class<T> layout) throws IOException {
        try (InputStream in = HardwareFacts.class.getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IOException(DIR + name + " is missing from the classpath");
            }
            return JsonRecords.read(in, layout);
        }
    }

    private static void checkComponents(ChipProfile c) {
        if (c.components().isEmpty() || c.components().containsValue(null)) {
            return; // only the sum is published: nothing to cross-check
        }
        double sum = 0;
        for (Map.Entry<String, Double> e : c.components().entrySet()) {
            Integer w = ChipProfile.WEIGHTS.get(e.getKey());
            if (w == null) {
                throw new IllegalStateException("chip " + c.chip() + ": unknown component " + e.getKey());
            }
            sum += w * e.getValue();
        }
        if (Math.abs(sum - c.alphaStepUs()) > SUM_TOLERANCE_US) {
            throw new IllegalStateException("chip " + c.chip() + ": components add up to " + sum
                    + " us, alphaStepUs says " + c.alphaStepUs());
        }
    }

    public Optional<Interconnect> interconnect(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(interconnects.get(name));
    }

    /**
     * The network fabric of a family ({@code IB}, {@code RoCE}: the part of its name before the dash) whose line
     * rate is {@code gbps} per port, as a NIC that states its speed names it; empty where none is.
     */
    public Optional<Interconnect> networkOf(String family, double gbps) {
        return interconnects.values().stream().filter(ic -> ic.name().startsWith(family + "-"))
                .filter(ic -> ic.betaPhysGBps() != null && Math.abs(ic.betaPhysGBps() - gbps) < 1e-9)
                .filter(ic -> topologyOf(ic).betweenHosts()).findFirst();
    }

    /**
     * The interconnect a flag names, for {@code --interconnect}, {@code --intra} and {@code --inter} alike: an
     * unknown name is that flag's input error (exit 2), listing the names there are.
     */
    public Interconnect interconnectNamed(String flag, String name) {
        // names are exact (they travel into reports and JSON as written); a name written another way (case,
        // spaces, no family: "ib ndr", "NDR", "infiniband", "RoCE") gets the names it can mean
        return interconnect(name).orElseThrow(() -> new InputException(flag, 0, "unknown interconnect " + name
                + hint(name) + "; known: " + String.join(", ", vocabulary)));
    }

    /** The names an unknown one can mean, worked out only for the error (a known name needs none of it). */
    private String hint(String name) {
        String key = spelling(name).replace("infiniband", "ib");
        List<String> near = key.isEmpty() ? List.of() : vocabulary.stream()
                .filter(v -> spelling(v).startsWith(key) || spelling(v).endsWith(key)).toList();
        return near.size() == 1 ? "; did you mean " + near.get(0) + "?"
                : near.isEmpty() ? "" : "; did you mean one of " + String.join(", ", near) + "?";
    }

    /** A name as letters and digits alone, lower case: how two spellings of one fabric are compared. */
    private static String spelling(String name) {
        return name == null ? "" : name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    public Optional<Topology> topology(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(topologies.get(name));
    }

    /** The topology an interconnect's ring steps cross. */
    public Topology topologyOf(Interconnect ic) {
        return topologies.get(ic.topology());
    }

    /** The chip profile for a GPU model string, empty when no published profile matches. */
    public Optional<ChipProfile> chipFor(String gpuModel) {
        return chips.stream().filter(c -> c.matches(gpuModel)).findFirst();
    }

    /** Interconnect names in file order: the vocabulary of the metadata and of {@code --interconnect}. */
    public List<String> vocabulary() {
        return vocabulary;
    }

    public List<String> topologyNames() {
        return List.copyOf(topologies.keySet());
    }

    /** The flat default utilisation naive models use (0.95, docs/calibration.md). */
    public double naiveUr() {
        return naiveUr;
    }
}
