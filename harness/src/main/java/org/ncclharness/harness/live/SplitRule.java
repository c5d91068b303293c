package org.ncclharness.harness.live;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * nccl-tests' NCCL_TESTS_SPLIT / NCCL_TESTS_SPLIT_MASK (src/common.cu): the colour of a world rank, which splits
 * the job into independent communicators. SPLIT is {@code AND|&, OR||, MOD|%, DIV|/} then a value in decimal,
 * {@code 0x} hex or {@code 0b} binary; SPLIT_MASK is a hex mask, the same as {@code AND mask}.
 */
public record SplitRule(String operation, long value) {

    private static final Pattern SPLIT = Pattern.compile("\\s*(AND|&|OR|\\||MOD|%|DIV|/)\\s*(\\S+)\\s*",
            Pattern.CASE_INSENSITIVE);

    /** No split: every rank has colour 0. */
    public static SplitRule none() {
        return new SplitRule("AND", 0);
    }

    public static SplitRule fromEnvironment(Map<String, String> env) {
        String split = env.get("NCCL_TESTS_SPLIT");
        if (split != null && !split.isBlank()) {
            Matcher m = SPLIT.matcher(split);
            if (!m.matches()) {
                throw bad("NCCL_TESTS_SPLIT", split, "an operation (AND, OR, MOD, DIV or &, |, %, /) and a value,"
                        + " e.g. 'MOD 2' or '&0x7'");
            }
            String op = switch (m.group(1).toUpperCase(Locale.ROOT)) {
                case "AND", "&" -> "AND";
                case "OR", "|" -> "OR";
                case "MOD", "%" -> "MOD";
                default -> "DIV";
            };
            long v = number("NCCL_TESTS_SPLIT", split, m.group(2));
            if ((op.equals("MOD") || op.equals("DIV")) && v == 0) {
                throw bad("NCCL_TESTS_SPLIT", split, "a non-zero value for " + op);
            }
            return new SplitRule(op, v);
        }
        String mask = env.get("NCCL_TESTS_SPLIT_MASK");
        if (mask != null && !mask.isBlank()) {
            try {
                return new SplitRule("AND", Long.parseLong(mask.trim().replaceFirst("^0[xX]", ""), 16));
            } catch (NumberFormatException e) {
                throw bad("NCCL_TESTS_SPLIT_MASK", mask, "a hexadecimal mask, e.g. 0x7");
            }
        }
        return none();
    }

    /** The colour of a world rank. */
    public long colour(long worldRank) {
        return switch (operation) {
            case "AND" -> worldRank & value;
            case "OR" -> worldRank | value;
            case "MOD" -> worldRank % value;
            default -> worldRank / value;
        };
    }

    private static long number(String var, String whole, String text) {
        try {
            String t = text.toLowerCase(Locale.ROOT);
            if (t.startsWith("0x")) {
                return Long.parseLong(t.substring(2), 16);
            }
            if (t.startsWith("0b")) {
                return Long.parseLong(t.substring(2), 2);
            }
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw bad(var, whole, "a value in decimal, 0x hex or 0b binary");
        }
    }

    private static HarnessException bad(String var, String value, String expected) {
        return new HarnessException(ExitCode.USAGE, "invalid " + var + "='" + value + "': expected " + expected);
    }
}
