package org.ncclharness.devtools.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The ways the fuzz damages or disguises the project's CSV and JSON (what {@code convert} writes), each with what a
 * reader must then do: refuse naming the damaged row (its line in a CSV, {@code results[K]} in a JSON; a damage to
 * the whole document, such as a cut, only cleanly), or read exactly the rows the document holds.
 */
public enum DocumentMutation {
    CSV_NUMBER_TO_LETTERS("csv", "a numeric field of a row becomes letters", Damage.ROW),
    CSV_NEGATIVE_SIZE("csv", "a size becomes negative", Damage.ROW),
    CSV_TYPE_NOT_A_NAME("csv", "the type becomes x, Float or empty", Damage.ROW),
    CSV_OP_NOT_A_NAME("csv", "the op becomes sun", Damage.ROW),
    CSV_DROP_FIELD("csv", "a row loses one field", Damage.ROW),
    CSV_EXTRA_FIELD("csv", "a row gains one field", Damage.ROW),
    CSV_BAD_PROVENANCE("csv", "the provenance kind is misspelled", Damage.ROW),
    CSV_EMPTY_LABEL("csv", "the provenance label is empty", Damage.ROW),
    CSV_HUGE("csv", "a time becomes 1e400", Damage.ROW),
    CSV_CRLF("csv", "every line ends in CR LF", Damage.NONE),
    CSV_BOM("csv", "the text starts with a byte-order mark", Damage.NONE),
    CSV_BLANK_LINES("csv", "blank lines between the rows", Damage.NONE),
    CSV_QUOTED("csv", "every field of a row is quoted", Damage.NONE),
    JSON_TYPE_NOT_A_NAME("json", "a row's type becomes x, Float or empty", Damage.ROW),
    JSON_OP_NOT_A_NAME("json", "a row's op becomes sun", Damage.ROW),
    JSON_NUMBER_TO_STRING("json", "a row's time becomes the string fast", Damage.ROW),
    JSON_NEGATIVE_SIZE("json", "a row's size becomes negative", Damage.ROW),
    JSON_ROOT_NOT_A_RANK("json", "a row's root becomes x", Damage.ROW),
    JSON_MISSING_SIZE("json", "a row loses its size", Damage.ROW),
    JSON_HUGE("json", "a row's time becomes 1e400", Damage.ROW),
    JSON_WRONG_TYPES("json", "a row's nwrong becomes an object", Damage.ROW),
    JSON_TRUNCATED("json", "the text ends early", Damage.WHOLE),
    JSON_LAST_BRACE("json", "the closing brace is removed", Damage.WHOLE),
    JSON_COMPACT("json", "all whitespace between tokens removed", Damage.NONE),
    JSON_CRLF("json", "every line ends in CR LF", Damage.NONE),
    JSON_BOM("json", "the text starts with a byte-order mark", Damage.NONE),
    JSON_KEYS_REVERSED("json", "every row's keys in reverse order", Damage.NONE);

    /** What a mutation breaks: one row (named in the refusal), the whole document (any clean refusal), nothing. */
    public enum Damage { ROW, WHOLE, NONE }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String format;
    private final String description;
    private final Damage damage;

    DocumentMutation(String format, String description, Damage damage) {
        this.format = format;
        this.description = description;
        this.damage = damage;
    }

    public String format() {
        return format;
    }

    public String description() {
        return description;
    }

    public Damage damage() {
        return damage;
    }

    /**
     * One damaged or disguised document.
     *
     * @param text        what the reader gets
     * @param damagedRow  for {@link Damage#ROW}, the 0-based row damaged; else -1
     * @param damagedLine for a CSV row, the 1-based line of that row; else 0
     * @param rows        the rows the undamaged document holds
     */
    public record Case(DocumentMutation kind, String text, int damagedRow, int damagedLine, List<Measurement> rows) {
    }

    /** The rows of a random table written in this mutation's format and damaged or disguised. */
    public Case apply(FuzzTable t, Random r) {
        Sweep s = new Sweep(Provenance.stored("fuzz.txt"), r.nextBoolean() ? Collective.ALL_REDUCE
                : Collective.UNKNOWN, RunInfo.unknown(), Hardware.unknown(), List.of(), t.rows(), List.of());
        int row = r.nextInt(t.rows().size());
        return format.equals("csv") ? csv(MeasurementCsv.toString(List.of(s)), row, t.rows(), r)
                : json(SweepJson.writeAll(List.of(s)), row, t.rows(), r);
    }

    private Case csv(String text, int row, List<Measurement> rows, Random r) {
        List<String> lines = new ArrayList<>(text.lines().toList());
        int at = row + 1;
        String[] f = lines.get(at).split(",", -1);
        switch (this) {
            case CSV_NUMBER_TO_LETTERS -> f[1 + r.nextInt(2)] = "x1";
            case CSV_NEGATIVE_SIZE -> f[1] = "-" + f[1];
            case CSV_TYPE_NOT_A_NAME -> f[3] = List.of("x", "Float", "").get(r.nextInt(3));
            case CSV_OP_NOT_A_NAME -> f[4] = "sun";
            case CSV_DROP_FIELD -> f = remove(f, r.nextInt(f.length - 1));
            case CSV_EXTRA_FIELD -> f = Arrays.copyOf(f, f.length + 1);
            case CSV_BAD_PROVENANCE -> f[16] = "stord";
            case CSV_EMPTY_LABEL -> f[17] = "";
            case CSV_HUGE -> f[6] = "1e400";
            case CSV_QUOTED -> f = Arrays.stream(f).map(v -> "\"" + v + "\"").toArray(String[]::new);
            default -> {
                // a disguise of the whole text, below
            }
        }
        if (this == CSV_EXTRA_FIELD) {
            f[f.length - 1] = "7";
        }
        lines.set(at, String.join(",", f));
        String out = switch (this) {
            case CSV_CRLF -> String.join("\r\n", lines) + "\r\n";
            case CSV_BOM -> "\uFEFF" + String.join("\n", lines) + "\n";
            case CSV_BLANK_LINES -> String.join("\n\n", lines) + "\n\n";
            default -> String.join("\n", lines) + "\n";
        };
        return damage == Damage.ROW ? new Case(this, out, row, at + 1, rows) : new Case(this, out, -1, 0, rows);
    }

    private Case json(String text, int row, List<Measurement> rows, Random r) {
        String out;
        try {
            ObjectNode doc = (ObjectNode) JSON.readTree(text);
            ObjectNode res = (ObjectNode) doc.path("results").get(row);
            switch (this) {
                case JSON_TYPE_NOT_A_NAME -> res.put("type", List.of("x", "Float", "").get(r.nextInt(3)));
                case JSON_OP_NOT_A_NAME -> res.put("redop", "sun");
                case JSON_NUMBER_TO_STRING -> ((ObjectNode) res.path("out_of_place")).put("time", "fast");
                case JSON_NEGATIVE_SIZE -> res.put("size", -8);
                case JSON_ROOT_NOT_A_RANK -> res.put("root", "x");
                case JSON_MISSING_SIZE -> res.remove("size");
                case JSON_WRONG_TYPES -> ((ObjectNode) res.path("in_place")).putObject("nwrong").put("a", 1);
                case JSON_KEYS_REVERSED -> reverseKeys((ArrayNode) doc.path("results"));
                default -> {
                    // a textual change, below
                }
            }
            out = this == JSON_COMPACT ? JSON.writeValueAsString(doc) : JSON.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(doc);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the JSON writer's own output does not parse", e);
        }
        if (this == JSON_HUGE) {
            String key = "\"time\" : ";
            int k = nth(out, key, row);
            int end = k + key.length();
            while (end < out.length() && "-+.0123456789eE".indexOf(out.charAt(end)) >= 0) {
                end++;
            }
            out = out.substring(0, k + key.length()) + "1e400" + out.substring(end);
        }
        out = switch (this) {
            case JSON_TRUNCATED -> out.substring(0, 1 + r.nextInt(out.strip().length() - 1));
            case JSON_LAST_BRACE -> out.substring(0, out.lastIndexOf('}'));
            case JSON_CRLF -> out.replace("\n", "\r\n");
            case JSON_BOM -> "\uFEFF" + out;
            default -> out;
        };
        return new Case(this, out, damage == Damage.ROW ? row : -1, 0, rows);
    }

    /** The index of the {@code n}th (0-based) out-of-place "time" key: each row's first. */
    private static int nth(String text, String key, int n) {
        int at = -1;
        for (int i = 0; i <= n; i++) {
            at = text.indexOf("\"out_of_place\"", at + 1);
        }
        return text.indexOf(key, at);
    }

    private static void reverseKeys(ArrayNode results) {
        for (int i = 0; i < results.size(); i++) {
            ObjectNode o = (ObjectNode) results.get(i);
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                fields.add(it.next());
            }
            o.removeAll();
            for (int k = fields.size() - 1; k >= 0; k--) {
                o.set(fields.get(k).getKey(), fields.get(k).getValue());
            }
        }
    }

    private static String[] remove(String[] a, int i) {
        String[] out = new String[a.length - 1];
        System.arraycopy(a, 0, out, 0, i);
        System.arraycopy(a, i + 1, out, i, a.length - i - 1);
        return out;
    }
}
