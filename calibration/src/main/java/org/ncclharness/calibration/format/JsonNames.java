package org.ncclharness.calibration.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one style of field names in the JSON this tool writes: nccl-tests' own, lower case words joined by
 * underscores ({@code start_time}, {@code nccl_version}, {@code minimum_bytes}, {@code alg_bw}, {@code out_of_place}:
 * the keys its {@code -J} writer emits, NVIDIA/nccl-tests src/util.cu). The writers build their documents with the
 * Java names of the values ({@code busBwGBps}) and turn them into this style ({@code bus_bw_gbps}) as the last step;
 * a reader turns a document of the new style back, so one reader reads both versions.
 *
 * <p>Only keys that are identifiers change: a key that is data (a model's name {@code B+beta}, a size band
 * {@code < 1 MiB}, {@code flat-ring}) has no lower-to-upper step and no underscore between lower-case words, and stays
 * as it is; so do the keys of the objects keyed by data ({@link #DATA_KEYED}), while a list of field names
 * ({@link #NAME_VALUED}) is renamed as its fields are. Acronyms keep their case on the way back ({@link #ACRONYMS}); {@code JsonNamesTest} holds that every key
 * the writers emit comes back to the name it was written from.
 */
public final class JsonNames {

    /** The words whose capitals a snake name loses: GB/s in unit suffixes, NCCL's LL and LL128 protocols. */
    private static final Map<String, String> ACRONYMS = Map.of("gbps", "GBps", "ll", "LL", "ll128", "LL128");
    private static final Pattern CAMEL = Pattern.compile("[a-z][a-z0-9]*(?:[A-Z][A-Za-z0-9]*)+");
    private static final Pattern WORD = Pattern.compile("GBps|LL128|LL|[A-Z][a-z0-9]*|[a-z0-9]+");
    private static final Pattern SNAKE = Pattern.compile("[a-z][a-z0-9]*(?:_[a-z0-9]+)+");
    /** Objects whose keys are data, kept as written: a log's environment variables by name, models not fitted. */
    private static final Set<String> DATA_KEYED = Set.of("environment", "unavailable");
    /** Arrays whose strings are themselves field names (a model's free parameters): renamed with the keys. */
    private static final Set<String> NAME_VALUED = Set.of("freeParameters", "free_parameters");

    private JsonNames() {
    }

    /** {@code busBwGBps} → {@code bus_bw_gbps}; a key that is not a camel-case identifier is returned as it is. */
    public static String snake(String key) {
        if (!CAMEL.matcher(key).matches()) {
            return key;
        }
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(key);
        while (m.find()) {
            words.add(m.group().toLowerCase(Locale.ROOT));
        }
        return String.join("_", words);
    }

    /** {@code bus_bw_gbps} → {@code busBwGBps}: the inverse of {@link #snake} on the names the writers use. */
    public static String camel(String key) {
        if (!SNAKE.matcher(key).matches()) {
            return key;
        }
        String[] words = key.split("_");
        StringBuilder b = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            String w = words[i];
            b.append(ACRONYMS.getOrDefault(w, Character.toUpperCase(w.charAt(0)) + w.substring(1)));
        }
        return b.toString();
    }

    /** The document with every object key in nccl-tests' style, at every depth (a new tree). */
    public static JsonNode toSnake(JsonNode node) {
        return rename(node, JsonNames::snake);
    }

    /** The document with the keys a {@link #toSnake} document has turned back to the writers' names. */
    public static JsonNode toCamel(JsonNode node) {
        return rename(node, JsonNames::camel);
    }

    private static JsonNode rename(JsonNode node, UnaryOperator<String> name) {
        if (node instanceof ObjectNode o) {
            ObjectNode out = o.objectNode();
            o.fields().forEachRemaining(e -> out.set(name.apply(e.getKey()), DATA_KEYED.contains(e.getKey())
                    ? e.getValue().deepCopy() : NAME_VALUED.contains(e.getKey()) ? names(e.getValue(), name)
                    : rename(e.getValue(), name)));
            return out;
        }
        if (node instanceof ArrayNode a) {
            ArrayNode out = a.arrayNode();
            a.forEach(v -> out.add(rename(v, name)));
            return out;
        }
        return node;
    }

    private static JsonNode names(JsonNode array, UnaryOperator<String> name) {
        if (!(array instanceof ArrayNode a)) {
            return array;
        }
        ArrayNode out = a.arrayNode();
        a.forEach(v -> out.add(v.isTextual() ? out.textNode(name.apply(v.asText())) : v));
        return out;
    }
}
