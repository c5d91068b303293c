package org.ncclharness.calibration.io;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The column layout of one nccl-tests result table, from its column-header line (reference B.2, B.3), or
 * guessed from a row's token count when a log excerpt has no header.
 *
 * @param hasRoot     the {@code root} column exists (nccl-tests ≥ 2.13)
 * @param rootNotOp   the 4th column is {@code root} instead of {@code redop} (≤ 2.11 broadcast/reduce)
 * @param errorColumn the last column of a half is {@code error} (max abs error, ≤ 2.11) rather than #wrong
 * @param perIter     {@code -I 1}: four per-iteration columns after each #wrong
 * @param timestamp   {@code -S 1}: a date and a time column at the end of the row
 */
record TableLayout(boolean hasRoot, boolean rootNotOp, boolean errorColumn, boolean perIter, boolean timestamp) {

    static final TableLayout CURRENT = new TableLayout(true, false, false, false, false);
    static final TableLayout OLD = new TableLayout(false, false, true, false, false);

    /** Recognises the column-name header line ({@code #  size  count  type  redop ...}). */
    static boolean isColumnHeader(String commentBody) {
        List<String> t = Arrays.asList(commentBody.trim().toLowerCase(Locale.ROOT).split("\\s+"));
        return t.size() >= 6 && t.get(0).equals("size") && t.get(1).equals("count") && t.get(2).equals("type");
    }

    static TableLayout fromHeader(String commentBody) {
        List<String> t = Arrays.asList(commentBody.trim().toLowerCase(Locale.ROOT).split("\\s+"));
        boolean rootNotOp = t.get(3).equals("root");
        boolean hasRoot = !rootNotOp && t.size() > 4 && t.get(4).equals("root");
        return new TableLayout(hasRoot, rootNotOp, t.contains("error"), t.contains("i_min"), t.contains("timestamp"));
    }

    /** Leading columns before the first half: size, count, type, redop/root[, root]. */
    int leading() {
        return hasRoot ? 5 : 4;
    }

    /** Columns per placement. */
    int perHalf() {
        return perIter ? 8 : 4;
    }

    int fullRow() {
        return leading() + 2 * perHalf() + (timestamp ? 2 : 0);
    }

    /**
     * Guesses a layout from the token count of a row seen before any header: 13 (≥ 2.13), 12 (≤ 2.11),
     * 9 or 8 (only the out-of-place half survived), plus 8 for -I and 2 for -S.
     */
    static TableLayout guess(int tokens, String fifthToken) {
        boolean rootLike = fifthToken != null && fifthToken.matches("-?\\d+") && !fifthToken.contains(".");
        TableLayout base = rootLike ? CURRENT : OLD;
        for (boolean perIter : new boolean[] {false, true}) {
            for (boolean ts : new boolean[] {false, true}) {
                TableLayout l = new TableLayout(base.hasRoot, false, base.errorColumn, perIter, ts);
                if (tokens == l.fullRow() || tokens == l.leading() + l.perHalf()) {
                    return l;
                }
            }
        }
        return base;
    }
}
