package org.ncclharness.harness.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * NCCL's example tuner plugin's reading of NCCL_TUNER_CONFIG_FILE, re-implemented from its source
 * (NVIDIA/nccl plugins/tuner/example/plugin.c at NCCL 2.30.7, loadConfig and pluginGetCollInfo), so a test reads an
 * export exactly as the plugin would:
 * <ul>
 *   <li>fgets into a 256-byte buffer: a line of more than 255 characters comes back in pieces, each a line;</li>
 *   <li>a piece whose first character is '#' or '\n' is skipped; the newline is cut;</li>
 *   <li>strtok on ',' (empty fields vanish), each token trimmed of spaces and tabs; 8 to 10 tokens make a row, the
 *       rest are dropped silently;</li>
 *   <li>names compared exactly; an unknown collective reads as allreduce, algorithm as ring, protocol as simple
 *       (here: recorded, so a test can refuse them);</li>
 *   <li>the first row whose collective, inclusive byte range, nNodes and nRanks (-1: any) match is applied.</li>
 * </ul>
 */
public final class ExamplePluginParser {

    static final Set<String> COLLECTIVES = Set.of("broadcast", "reduce", "allgather", "reducescatter", "allreduce");
    static final Set<String> ALGORITHMS = Set.of("tree", "ring", "collnet_direct", "collnet_chain", "nvls",
            "nvls_tree", "pat");
    static final Set<String> PROTOCOLS = Set.of("ll", "ll128", "simple");
    private static final int BUFFER = 256;

    /** One row as the plugin holds it, with the comment lines read last before it (the plugin skips them). */
    public record Row(String collective, long minBytes, long maxBytes, String algorithm, String protocol, int channels,
               int nodes, int ranks, int pipeOps, int regBuff, String comment, boolean namesKnown) {
        boolean matches(String c, long bytes, int n, int r) {
            return collective.equals(c) && Long.compareUnsigned(bytes, minBytes) >= 0
                    && Long.compareUnsigned(bytes, maxBytes) <= 0 && (nodes == -1 || nodes == n)
                    && (ranks == -1 || ranks == r);
        }
    }

    private ExamplePluginParser() {
    }

    public static List<Row> parse(String text) {
        List<Row> rows = new ArrayList<>();
        String comment = null;
        boolean inComment = false;
        for (String piece : pieces(text)) {
            if (piece.startsWith("#")) {
                comment = inComment ? comment + piece : piece;
                inComment = true;
                continue;
            }
            inComment = false;
            if (piece.startsWith("\n")) {
                comment = null;
                continue;
            }
            String line = piece.endsWith("\n") ? piece.substring(0, piece.length() - 1) : piece;
            List<String> tokens = new ArrayList<>();
            for (String t : line.split(",")) {
                String trimmed = t.replaceAll("^[ \t]+|[ \t]+$", "");
                if (!t.isEmpty() && tokens.size() < 10) {
                    tokens.add(trimmed);
                }
            }
            if (tokens.size() < 8) {
                continue;
            }
            boolean known = COLLECTIVES.contains(tokens.get(0)) && ALGORITHMS.contains(tokens.get(3))
                    && PROTOCOLS.contains(tokens.get(4));
            rows.add(new Row(COLLECTIVES.contains(tokens.get(0)) ? tokens.get(0) : "allreduce",
                    Long.parseUnsignedLong(tokens.get(1)), Long.parseUnsignedLong(tokens.get(2)),
                    ALGORITHMS.contains(tokens.get(3)) ? tokens.get(3) : "ring",
                    PROTOCOLS.contains(tokens.get(4)) ? tokens.get(4) : "simple", Integer.parseInt(tokens.get(5)),
                    Integer.parseInt(tokens.get(6)), Integer.parseInt(tokens.get(7)),
                    tokens.size() > 8 ? Integer.parseInt(tokens.get(8)) : -1,
                    tokens.size() > 9 ? Integer.parseInt(tokens.get(9)) : -1, comment, known));
        }
        return rows;
    }

    /** The first row that applies, as pluginGetCollInfo looks it up. */
    public static Optional<Row> lookup(List<Row> rows, String collective, long bytes, int nodes, int ranks) {
        return rows.stream().filter(r -> r.matches(collective, bytes, nodes, ranks)).findFirst();
    }

    /** What successive fgets calls with a 256-byte buffer return. */
    private static List<String> pieces(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int nl = text.indexOf('\n', i);
            int end = nl < 0 ? text.length() : nl + 1;
            end = Math.min(end, i + BUFFER - 1);
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }
}
