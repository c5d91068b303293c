package org.ncclharness.devtools.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.ncclharness.calibration.measure.Measurement;

/**
 * The 28 ways the fuzz damages or disguises a table, each with what a reader must then do: refuse with the
 * damaged line's number (16 kinds that break a row), or read exactly the rows the text still holds (12 kinds
 * that only disguise it: line ends, labels, noise, a row broken over two lines, rows removed or repeated, the
 * text cut inside its last row).
 */
public enum Mutation {
    CUT_ROW("a row keeps only its first k tokens, and more of the table follows", true),
    DELETE_TOKEN("one token of a row is removed, and more of the table follows", true),
    DUPLICATE_TOKEN("one token of a row is repeated", true),
    INSERT_GARBAGE_TOKEN("a stray token (x7) is put into a row", true),
    FIRST_CHAR_LETTER("a token's first character becomes a letter (O048, Xloat, Xum)", true),
    TYPE_TYPO("the type is misspelled (flaot)", true),
    NUMBER_TO_LETTERS("a bandwidth becomes letters", true),
    NEGATIVE("a time becomes negative", true),
    HUGE("a time becomes 1e400", true),
    OVERFLOW_INT("a size or count becomes 99999999999999999999", true),
    NAN("a time becomes nan", true),
    CONTROL_CHAR("an ESC character is put into a token", true),
    NUL_CHAR("a NUL character is put into a token", true),
    LONG_TOKEN("a token becomes 10,000 digits", true),
    SPLIT_MID_TOKEN("a row is broken over two lines inside a token", true),
    DECIMAL_COMMA("a time is written with a decimal comma", true),
    SPLIT_AT_TOKEN("a row is broken over two lines between two tokens", false),
    BLANK_LINE("a blank line is put after some line", false),
    NCCL_INFO_LINE("an NCCL INFO line is put into the table", false),
    PROSE_LINE("a line of prose is put into the table", false),
    CRLF("every line ends in CR LF", false),
    BOM("the text starts with a byte-order mark", false),
    TABS("a row's spaces become tabs", false),
    TRAILING_WHITESPACE("a line gets trailing spaces and a tab", false),
    EXTRA_LABEL("one line gets one more launcher label in front", false),
    DELETE_ROW_LINE("a row's line is removed (a shorter, undamaged table)", false),
    DUPLICATE_ROW_LINE("a row's line is repeated", false),
    TRUNCATE_TEXT("the text ends inside a row, before its last token: earlier rows exactly, that row kept in part or "
            + "not at all", false);

    private final String description;
    private final boolean damages;

    Mutation(String description, boolean damages) {
        this.description = description;
        this.damages = damages;
    }

    public String description() {
        return description;
    }

    /** True for the kinds after which the reader must refuse, naming the damaged line. */
    public boolean damages() {
        return damages;
    }

    /**
     * One damaged or disguised text and what must come of it.
     *
     * @param text         the text handed to the reader
     * @param damagedLine  for a damaging kind, the 1-based line the refusal must name; else 0
     * @param rows         for the other kinds, the rows the text still holds; for {@link #TRUNCATE_TEXT}, the
     *                     rows before the cut one
     * @param cutRow       for {@link #TRUNCATE_TEXT}, the row the text ends inside (it may be kept in part)
     */
    public record Case(Mutation kind, String text, int damagedLine, List<Measurement> rows, Measurement cutRow) { }

    /** This mutation applied to a table, or null when the table has no row it can be applied to. */
    public Case apply(FuzzTable t, Random r) {
        List<String> lines = new ArrayList<>(t.lines());
        List<Measurement> rows = new ArrayList<>(t.rows());
        int row = target(t, r);
        if (row < 0) {
            return null;
        }
        int at = t.rowLines().get(row);
        String prefix = t.layout().prefix();
        String[] tok = lines.get(at).substring(prefix.length()).trim().split("\\s+");
        int full = tok.length;
        switch (this) {
            case CUT_ROW -> lines.set(at, prefix + join(Arrays.copyOf(tok, 1 + r.nextInt(full - 1))));
            case DELETE_TOKEN -> lines.set(at, prefix + join(remove(tok, r.nextInt(full))));
            case DUPLICATE_TOKEN -> {
                int i = r.nextInt(full);
                lines.set(at, prefix + join(insert(tok, i, tok[i])));
            }
            case INSERT_GARBAGE_TOKEN -> lines.set(at, prefix + join(insert(tok, r.nextInt(full + 1), "x7")));
            case FIRST_CHAR_LETTER -> {
                int i = r.nextInt(full);
                tok[i] = "OXl".charAt(r.nextInt(3)) + tok[i].substring(1);
                lines.set(at, prefix + join(tok));
            }
            case TYPE_TYPO -> {
                tok[2] = "flaot";
                lines.set(at, prefix + join(tok));
            }
            case NUMBER_TO_LETTERS -> replace(lines, at, prefix, tok, algIndex(t), "abc");
            case NEGATIVE -> replace(lines, at, prefix, tok, timeIndex(t), "-" + tok[timeIndex(t)]);
            case HUGE -> replace(lines, at, prefix, tok, timeIndex(t), "1e400");
            case OVERFLOW_INT -> replace(lines, at, prefix, tok, r.nextInt(2), "99999999999999999999");
            case NAN -> replace(lines, at, prefix, tok, timeIndex(t), "nan");
            case CONTROL_CHAR -> insideToken(lines, at, prefix, tok, r, "\u001b[31m");
            case NUL_CHAR -> insideToken(lines, at, prefix, tok, r, "\u0000");
            case LONG_TOKEN -> {
                int i = r.nextInt(full);
                replace(lines, at, prefix, tok, i == 2 ? 0 : i, "9".repeat(10_000));
            }
            case SPLIT_MID_TOKEN -> {
                int i = longToken(tok, r);
                int cut = 1 + r.nextInt(tok[i].length() - 1);
                String first = join(Arrays.copyOf(tok, i)) + (i == 0 ? "" : "  ") + tok[i].substring(0, cut);
                String second = tok[i].substring(cut) + "  " + join(Arrays.copyOfRange(tok, i + 1, full));
                lines.set(at, prefix + first);
                lines.add(at + 1, prefix + second);
            }
            case DECIMAL_COMMA -> replace(lines, at, prefix, tok, timeIndex(t), tok[timeIndex(t)].replace('.', ','));
            case SPLIT_AT_TOKEN -> {
                int k = 1 + r.nextInt(full - 1);
                lines.set(at, prefix + join(Arrays.copyOf(tok, k)));
                lines.add(at + 1, prefix + join(Arrays.copyOfRange(tok, k, full)));
            }
            case BLANK_LINE -> lines.add(1 + r.nextInt(lines.size()), "");
            case NCCL_INFO_LINE -> lines.add(at, prefix + "node1:1234:5678 [0] NCCL INFO Channel 00/0 : 0[0] -> "
                    + "1[1] via P2P/CUMEM/read");
            case PROSE_LINE -> lines.add(at, prefix + "Warning: Permanently added 'node2' (ECDSA) to the list of "
                    + "known hosts.");
            case CRLF, BOM -> {
                // applied to the whole text below
            }
            case TABS -> lines.set(at, prefix + String.join("\t", tok));
            case TRAILING_WHITESPACE -> {
                int i = r.nextInt(lines.size());
                lines.set(i, lines.get(i) + "   \t");
            }
            case EXTRA_LABEL -> {
                List<String> labels = List.of("2025-01-02T03:04:05.678Z ", "[pod/nccl-x1/launcher] ",
                        "(worker1, rank=1, pid=42, ip=10.0.0.2) ");
                int i = r.nextInt(lines.size());
                lines.set(i, labels.get(r.nextInt(labels.size())) + lines.get(i));
            }
            case DELETE_ROW_LINE -> {
                lines.remove(at);
                rows.remove(row);
            }
            case DUPLICATE_ROW_LINE -> {
                lines.add(at, lines.get(at));
                rows.add(row, rows.get(row));
            }
            case TRUNCATE_TEXT -> {
                // Before the last token starts: a text that ends inside a row's last token ("5e-0" of "5e-07")
                // is a whole row to any reader, so it is no test of one
                String line = lines.get(at);
                int lastToken = line.stripTrailing().lastIndexOf(' ') + 1;
                int cut = prefix.length() + 1 + r.nextInt(lastToken - prefix.length() - 1);
                List<String> kept = new ArrayList<>(lines.subList(0, at));
                kept.add(line.substring(0, cut));
                return new Case(this, String.join("\n", kept), 0, rows.subList(0, row), rows.get(row));
            }
        }
        String text = String.join(this == CRLF ? "\r\n" : "\n", lines) + "\n";
        if (this == BOM) {
            text = "\uFEFF" + text;
        }
        return new Case(this, text, damages ? at + 1 : 0, damages ? List.of() : List.copyOf(rows), null);
    }

    /**
     * The row to damage: one inside a table (after a header, or after the first row of an excerpt, before
     * which no reader can tell a broken row from prose); for the kinds that shorten a row, one with more of
     * the table after it, since a last row cut short is allowed to end early. -1 when there is none.
     */
    private int target(FuzzTable t, Random r) {
        int n = t.rows().size();
        int first = t.layout().header() ? 0 : 1;
        boolean shortens = this == CUT_ROW || this == DELETE_TOKEN || this == SPLIT_MID_TOKEN;
        int last = shortens && !t.layout().trailer() ? n - 2 : n - 1;
        if (this == DELETE_ROW_LINE && n < 2 || last < first) {
            return -1;
        }
        return first + r.nextInt(last - first + 1);
    }

    private static int timeIndex(FuzzTable t) {
        return 3 + (t.layout().redop() ? 1 : 0) + (t.layout().root() ? 1 : 0);
    }

    private static int algIndex(FuzzTable t) {
        return timeIndex(t) + 1;
    }

    /** A token of two or more characters to break inside. */
    private static int longToken(String[] tok, Random r) {
        while (true) {
            int i = r.nextInt(tok.length);
            if (tok[i].length() >= 2) {
                return i;
            }
        }
    }

    private static void insideToken(List<String> lines, int at, String prefix, String[] tok, Random r, String what) {
        int i = r.nextInt(tok.length);
        int c = r.nextInt(tok[i].length() + 1);
        replace(lines, at, prefix, tok, i, tok[i].substring(0, c) + what + tok[i].substring(c));
    }

    private static void replace(List<String> lines, int at, String prefix, String[] tok, int i, String token) {
        String[] t = tok.clone();
        t[i] = token;
        lines.set(at, prefix + join(t));
    }

    private static String[] remove(String[] tok, int i) {
        List<String> l = new ArrayList<>(Arrays.asList(tok));
        l.remove(i);
        return l.toArray(String[]::new);
    }

    private static String[] insert(String[] tok, int i, String token) {
        List<String> l = new ArrayList<>(Arrays.asList(tok));
        l.add(i, token);
        return l.toArray(String[]::new);
    }

    private static String join(String[] tok) {
        return "  " + String.join("  ", tok);
    }
}
