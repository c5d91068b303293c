package org.ncclharness.harness.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * One NCCL_ALGO × NCCL_PROTO pair of a {@code --algo/--proto} matrix; a null side leaves NCCL's own choice.
 * Names are NCCL's (src/graph/tuning.cc), matched case-insensitively and printed in NCCL's spelling.
 */
public record Combination(String algo, String proto) {

    static final List<String> ALGOS = List.of("Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree",
            "PAT");
    static final List<String> PROTOS = List.of("LL", "LL128", "Simple");

    /** The combination of a run that forces nothing. */
    public static Combination auto() {
        return new Combination(null, null);
    }

    public boolean isAuto() {
        return algo == null && proto == null;
    }

    /** {@code Ring/LL128}; {@code auto} for a side NCCL chooses. */
    public String label() {
        return (algo == null ? "auto" : algo) + "/" + (proto == null ? "auto" : proto);
    }

    /** The matrix: every algorithm with every protocol, algorithms outermost, in the order given. */
    public static List<Combination> matrix(String algos, String protos) {
        List<String> a = names(algos, ALGOS, "--algo");
        List<String> p = names(protos, PROTOS, "--proto");
        List<Combination> out = new ArrayList<>();
        for (String x : a.isEmpty() ? Arrays.asList((String) null) : a) {
            for (String y : p.isEmpty() ? Arrays.asList((String) null) : p) {
                out.add(new Combination(x, y));
            }
        }
        return out;
    }

    private static List<String> names(String list, List<String> known, String flag) {
        if (list == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String token : list.split(",")) {
            String t = token.trim();
            Optional<String> name = known.stream().filter(k -> k.equalsIgnoreCase(t)).findFirst();
            if (name.isEmpty()) {
                throw new HarnessException(ExitCode.USAGE, String.format(Locale.ROOT,
                        "invalid %s '%s': expected a comma-separated list of %s", flag, t, String.join(", ", known)));
            }
            if (!out.contains(name.get())) {
                out.add(name.get());
            }
        }
        return out;
    }
}
