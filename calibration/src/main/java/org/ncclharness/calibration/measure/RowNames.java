package org.ncclharness.calibration.measure;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The datatype and op names a row may carry, one list for every reader: a log's table, the CSV and the JSON accept
 * the same names, so a row one of them read is one every writer can emit and every reader reads back (issue 46: a
 * JSON row of type "x" converted to a table and CSV that the readers then refused).
 */
public final class RowNames {

    /** Datatype names nccl-tests and rccl-tests print (src/common.cu's test_typenames, old and new spellings). */
    public static final Set<String> TYPES = Set.of("int8", "uint8", "int32", "uint32", "int64", "uint64", "half",
            "float", "double", "bfloat16", "bf16", "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2", "char", "int", "uint");

    /** Reduction op names they print in the redop column; {@code none} for collectives that do not reduce. */
    public static final Set<String> OPS = Set.of("sum", "prod", "max", "min", "avg", "none", "premulsum", "mulsum");

    private static final java.util.Map<String, String> CANONICAL = new java.util.HashMap<>();

    static {
        TYPES.forEach(t -> CANONICAL.put(t, t));
        OPS.forEach(o -> CANONICAL.put(o, o));
    }

    private RowNames() {
    }

    /** The one shared instance of a name in {@link #TYPES} or {@link #OPS}; any other string as it is. */
    public static String canonical(String name) {
        return name == null ? null : CANONICAL.getOrDefault(name, name);
    }

    /** Why {@code type} and {@code redop} are not a row's names, or empty when they are. */
    public static Optional<String> problem(String type, String redop) {
        if (!TYPES.contains(type)) {
            return Optional.of("type " + quote(type) + " is not a datatype nccl-tests prints (" + list(TYPES) + ")");
        }
        if (!OPS.contains(redop)) {
            return Optional.of("redop " + quote(redop) + " is not an op nccl-tests prints (" + list(OPS) + ")");
        }
        return Optional.empty();
    }

    private static String list(Set<String> names) {
        return String.join(", ", new TreeSet<>(names));
    }

    private static String quote(String name) {
        return name.isEmpty() ? "'' (empty)" : "'" + name.replaceAll("\\p{Cntrl}", "?") + "'";
    }
}
