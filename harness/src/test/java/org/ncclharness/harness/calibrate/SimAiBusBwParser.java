package org.ncclharness.harness.calibrate;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SimAI's analytical busbw reader re-read from aliyun/SimAI (astra-sim-alibabacloud/astra-sim/system/
 * AstraParamParse.hh, UserParam::parseYaml, as of commit d44c48b): the first line is skipped; each further line is
 * trimmed of spaces; empty and {@code #} lines are skipped; a line ending in {@code :} names the section; else the key
 * is what stands before the first {@code :}, trailing spaces and everything from its first comma removed, the value
 * the first whitespace-separated word after it, {@code null} skipped, else std::stof. Only TP, DP and EP with
 * allreduce, allgather, reducescatter, alltoall are kept; a value not set stays -1.
 */
final class SimAiBusBwParser {

    private SimAiBusBwParser() {
    }

    /** "TP.allreduce" → value, for every value set (not null). */
    static Map<String, Float> parse(String text) {
        Map<String, Float> out = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        String section = "";
        for (int i = 1; i < lines.length; i++) {
            String line = trimSpaces(lines[i]);
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            if (line.endsWith(":")) {
                section = line.substring(0, line.length() - 1);
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).replaceAll(" +$", "");
            String[] words = line.substring(colon + 1).trim().split("\\s+");
            if (words.length == 0 || words[0].isEmpty()) {
                continue;
            }
            int comma = key.indexOf(',');
            key = comma >= 0 ? key.substring(0, comma) : key;
            if (words[0].equals("null")) {
                continue;
            }
            float value = Float.parseFloat(words[0]);
            if (java.util.List.of("TP", "DP", "EP").contains(section) && java.util.List.of("allreduce", "allgather",
                    "reducescatter", "alltoall").contains(key)) {
                out.put(section + "." + key, value);
            }
        }
        return out;
    }

    private static String trimSpaces(String s) {
        int from = 0;
        while (from < s.length() && s.charAt(from) == ' ') {
            from++;
        }
        int to = s.length();
        while (to > from && s.charAt(to - 1) == ' ') {
            to--;
        }
        return s.substring(from, to);
    }
}
