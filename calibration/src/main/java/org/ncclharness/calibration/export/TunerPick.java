package org.ncclharness.calibration.export;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * One (algorithm, protocol) pair as NCCL_ALGO and NCCL_PROTO name it, and as NCCL's example tuner plugin spells it
 * (plugins/tuner/example/plugin.c, parseAlgorithm and parseProtocol: lowercase, compared exactly; a name it does
 * not know silently becomes ring or simple, so only these are ever written).
 *
 * @param algorithm NCCL's name ({@code Ring}, {@code NVLSTree}, ...), one of {@link #ALGORITHMS}' keys
 * @param protocol  the protocol
 */
public record TunerPick(String algorithm, Protocol protocol) {

    /** NCCL_ALGO's names in NCCL's index order, each with the plugin's. */
    private static final Map<String, String> ALGORITHMS = new LinkedHashMap<>();

    static {
        ALGORITHMS.put("Tree", "tree");
        ALGORITHMS.put("Ring", "ring");
        ALGORITHMS.put("CollNetDirect", "collnet_direct");
        ALGORITHMS.put("CollNetChain", "collnet_chain");
        ALGORITHMS.put("NVLS", "nvls");
        ALGORITHMS.put("NVLSTree", "nvls_tree");
        ALGORITHMS.put("PAT", "pat");
    }

    public TunerPick {
        if (!ALGORITHMS.containsKey(algorithm)) {
            throw new IllegalArgumentException("unknown NCCL algorithm " + algorithm + "; known: "
                    + ALGORITHMS.keySet());
        }
    }

    /** The pair NCCL_ALGO/NCCL_PROTO values name (any case); empty where either is not one NCCL knows. */
    public static Optional<TunerPick> of(String algo, String proto) {
        if (algo == null || proto == null) {
            return Optional.empty();
        }
        Optional<String> a = ALGORITHMS.keySet().stream().filter(k -> k.equalsIgnoreCase(algo.trim())).findFirst();
        Optional<Protocol> p = java.util.Arrays.stream(Protocol.values())
                .filter(x -> x.label().equalsIgnoreCase(proto.trim())).findFirst();
        return a.isPresent() && p.isPresent() ? Optional.of(new TunerPick(a.get(), p.get())) : Optional.empty();
    }

    /** The plugin's name of the algorithm. */
    public String tunerAlgorithm() {
        return ALGORITHMS.get(algorithm);
    }

    /** The plugin's name of the protocol. */
    public String tunerProtocol() {
        return protocol.label().toLowerCase(Locale.ROOT);
    }

    public String label() {
        return algorithm + "/" + protocol.label();
    }
}
