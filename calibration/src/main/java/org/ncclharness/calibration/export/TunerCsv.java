package org.ncclharness.calibration.export;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The text of an NCCL_TUNER_CONFIG_FILE for NCCL's example tuner plugin. Its parser (plugins/tuner/example/plugin.c,
 * loadConfig) skips a line whose first character is {@code #} and reads at most {@value #PLUGIN_LINE_CHARS}
 * characters per read, so a longer comment would come back as a line of its own, not skipped: comments are
 * wrapped short of it. Lines end in a bare newline (a carriage return would make an empty line count as a row).
 */
public final class TunerCsv {

    /** fgets into the plugin's 256-byte buffer: 255 characters and the terminator. */
    static final int PLUGIN_LINE_CHARS = 255;
    /** Where comments wrap: well inside the plugin's limit. */
    static final int COMMENT_CHARS = 118;
    static final String HEADER = "collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,"
            + "numPipeOps,regBuff";

    private TunerCsv() {
    }

    /**
     * The file: the heading comments, then the rows in order (the plugin takes the first row that matches), each
     * run of rows after an empty line, under a comment naming their origin.
     */
    public static String text(List<String> heading, List<TunerRow> rows) {
        StringBuilder out = new StringBuilder();
        heading.forEach(h -> comment(out, h));
        comment(out, HEADER);
        String origin = null;
        for (TunerRow r : rows) {
            if (!Objects.equals(origin, r.origin())) {
                origin = r.origin();
                // an empty line (the plugin skips it) sets each block apart
                comment(out.append('\n'), origin);
            }
            out.append(r.line()).append('\n');
        }
        return out.toString();
    }

    private static void comment(StringBuilder out, String text) {
        for (String line : wrap(text)) {
            out.append("# ").append(line).append('\n');
        }
    }

    /** Words into lines of at most {@link #COMMENT_CHARS}; one longer word is cut. */
    static List<String> wrap(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            while (word.length() > COMMENT_CHARS) {
                if (!line.isEmpty()) {
                    out.add(line.toString());
                    line.setLength(0);
                }
                out.add(word.substring(0, COMMENT_CHARS));
                word = word.substring(COMMENT_CHARS);
            }
            if (!line.isEmpty() && line.length() + 1 + word.length() > COMMENT_CHARS) {
                out.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        if (!line.isEmpty()) {
            out.add(line.toString());
        }
        return out;
    }
}
