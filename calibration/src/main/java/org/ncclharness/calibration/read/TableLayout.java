package org.ncclharness.calibration.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The column layout of one nccl-tests/rccl-tests result table, read from the table's own column-header line
 * (nccl-tests src/util.cu) or, for an excerpt without one, from the shape of its first row. Every generation is
 * one of these: the leading columns ({@code size count type}, then {@code redop} and {@code root} where that
 * version prints them, or {@code root} alone in the ≤ 2.11 broadcast/reduce tables), two halves of
 * {@code time algbw busbw} plus {@code #wrong} or the older {@code error} and any per-iteration columns, newer
 * rccl-tests' {@code algo proto nchannels} (its {@code -A 1}: what RCCL ran each size with) and a trailing
 * timestamp ({@code -S 1}, two tokens).
 *
 * @param hasRedop    the {@code redop} column exists (absent in the ~2.0 all_gather layout)
 * @param hasRoot     the {@code root} column exists
 * @param errorColumn the data-check column of a half is {@code error} (a maximum deviation) rather than #wrong
 * @param perHalf     columns per placement: 4, or 8 with {@code -I 1}
 * @param tuning      rccl-tests' {@code algo proto nchannels} after the in-place half
 * @param timestamp   {@code -S 1}: a date and a time at the end of the row
 * @param headerLine  the line of the column header this layout was read from, 0 when guessed from a row
 */
record TableLayout(boolean hasRedop, boolean hasRoot, boolean errorColumn, int perHalf, boolean tuning,
                   boolean timestamp, int headerLine) {

    /** rccl-tests' columns after the halves, as its header names them. */
    static final List<String> TUNING = List.of("algo", "proto", "nchannels");

    /** Reduction op names nccl-tests and rccl-tests print in the redop column. */
    static final Set<String> OPS = org.ncclharness.calibration.measure.RowNames.OPS;

    /** Recognises the column-name header line ({@code #  size  count  type  redop ...}). */
    static boolean isColumnHeader(String commentBody) {
        List<String> t = tokens(commentBody);
        return t.size() >= 6 && t.get(0).equals("size") && t.get(1).equals("count") && t.get(2).equals("type");
    }

    /** The layout a column header names, or null when its columns are not a layout this reader knows. */
    static TableLayout fromHeader(String commentBody, int line) {
        List<String> t = tokens(commentBody);
        int time = timeColumn(t, 3);
        if (time < 0) {
            return null;
        }
        List<String> leading = t.subList(3, time);
        boolean redop = leading.contains("redop");
        boolean root = leading.contains("root");
        if (leading.size() != (redop ? 1 : 0) + (root ? 1 : 0)) {
            return null;
        }
        int second = timeColumn(t, time + 1);
        int perHalf = second < 0 ? t.size() - time : second - time;
        List<String> half = t.subList(time, time + perHalf);
        if (perHalf < 4 || !half.get(1).equals("algbw") || !half.get(2).equals("busbw")) {
            return null;
        }
        boolean error = half.get(3).equals("error");
        if (!error && !half.get(3).equals("#wrong") && !half.get(3).equals("wrong")) {
            return null;
        }
        int after = second < 0 ? time + perHalf : second + perHalf;
        boolean tuning = after + TUNING.size() <= t.size() && t.subList(after, after + TUNING.size()).equals(TUNING);
        after += tuning ? TUNING.size() : 0;
        boolean ts = after < t.size() && t.get(after).equals("timestamp");
        if (after + (ts ? 1 : 0) != t.size()) {
            return null; // a column this reader does not know
        }
        return new TableLayout(redop, root, error, perHalf, tuning, ts, line);
    }

    private static int timeColumn(List<String> t, int from) {
        for (int i = from; i < t.size(); i++) {
            if (t.get(i).equals("time") || t.get(i).equals("cputime")) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> tokens(String commentBody) {
        return Arrays.asList(commentBody.strip().toLowerCase(Locale.ROOT).split("\\s+"));
    }

    /**
     * The layout a row implies when no header came before it (an excerpt): the 4th token is an op name when
     * there is a redop column, an integer when it is the root, and a time (a decimal) otherwise; the 5th is the
     * root when it is an integer after an op. The data-check token is {@code error} when written in exponent
     * form ({@code 5e-07}). Null when the row fits no layout.
     */
    static TableLayout guess(String[] t) {
        if (t.length < 7) {
            return null;
        }
        boolean redop = OPS.contains(t[3]);
        String rootToken = redop ? t[4] : t[3];
        // A whole-microsecond time (1041974) looks like a root: the column count decides
        for (boolean root : isInteger(rootToken) ? new boolean[] {true, false} : new boolean[] {false}) {
            int leading = 3 + (redop ? 1 : 0) + (root ? 1 : 0);
            int rest = t.length - leading;
            boolean tuning = tuningColumns(t, t.length - TUNING.size());
            for (int perHalf : new int[] {4, 8}) {
                for (boolean ts : new boolean[] {false, true}) {
                    if (rest == 2 * perHalf + (ts ? 2 : 0) || rest == perHalf) {
                        boolean error = t[leading + 3].matches("[-+]?\\d(?:\\.\\d+)?[eE][-+]\\d+");
                        return new TableLayout(redop, root, error, perHalf, false, ts, 0);
                    }
                }
                if (tuning && rest == 2 * perHalf + TUNING.size()) {
                    return new TableLayout(redop, root, false, perHalf, true, false, 0);
                }
            }
        }
        return null;
    }

    /**
     * rccl-tests' {@code algo proto nchannels} at {@code at}: two names and a channel count, each {@code N/A} where
     * RCCL planned no collective (alltoall runs on point-to-point).
     */
    static boolean tuningColumns(String[] t, int at) {
        if (at < 0 || at + TUNING.size() > t.length) {
            return false;
        }
        return name(t[at]) && name(t[at + 1]) && (t[at + 2].equals("N/A") || t[at + 2].matches("\\d{1,4}"));
    }

    private static boolean name(String token) {
        return token.equals("N/A") || token.matches("[A-Za-z][A-Za-z0-9_]*");
    }

    private static boolean isInteger(String token) {
        return token.matches("-?\\d+");
    }

    /** Leading columns before the first half: size, count, type[, redop][, root]. */
    int leading() {
        return 3 + (hasRedop ? 1 : 0) + (hasRoot ? 1 : 0);
    }

    int fullRow() {
        return halvesEnd() + (tuning ? TUNING.size() : 0) + (timestamp ? 2 : 0);
    }

    /** The index after the in-place half: where the tuning columns or the timestamp start. */
    int halvesEnd() {
        return leading() + 2 * perHalf;
    }

    /** Index of the root token, or -1 when the layout has none. */
    int rootIndex() {
        return hasRoot ? leading() - 1 : -1;
    }

    /** The column names, for messages: {@code size count type redop root time algbw busbw #wrong ...}. */
    String describe() {
        List<String> c = new ArrayList<>(List.of("size", "count", "type"));
        if (hasRedop) {
            c.add("redop");
        }
        if (hasRoot) {
            c.add("root");
        }
        String half = "time algbw busbw " + (errorColumn ? "error" : "#wrong") + (perHalf == 8 ? " i_min i_max i_p99 i_cv%" : "");
        return String.join(" ", c) + ", then " + half + " out-of-place and in-place" + (tuning ? ", then "
                + String.join(" ", TUNING) : "") + (timestamp ? ", then a timestamp" : "");
    }
}
