package org.ncclharness.calibration.diagnose;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Severity;

/**
 * The diagnosis table ({@code /nccl/diagnosis-rules.json}): which NCCL message means what, read from NCCL's own
 * format strings across its releases (github.com/NVIDIA/nccl, tags v2.3.5-5 to v2.30.7-1), and what each status a
 * message reports means (verbs completion status, errno, ncclResult_t). Hardware and software facts live in the
 * table, not in {@link Diagnoser}.
 *
 * @param rules       message pattern to finding, in the order they are tried (the first that matches wins)
 * @param facts       message pattern to a fact the diagnosis gathers (no finding on its own)
 * @param ibvWcStatus {@code enum ibv_wc_status} by number
 * @param errno       Linux errno by its strerror text
 * @param ncclResult  {@code ncclResult_t} by number
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NcclRules(List<Rule> rules, List<Fact> facts,
                        @JsonProperty("ibv_wc_status") Map<String, Meaning> ibvWcStatus,
                        Map<String, Meaning> errno,
                        @JsonProperty("nccl_result") Map<String, Meaning> ncclResult) {

    private static final String RESOURCE = "/nccl/diagnosis-rules.json";
    private static final NcclRules TABLE = load();

    /** Which lines a rule reads: NCCL's WARN or INFO messages, or any line of the log (a test's or a framework's). */
    public enum Level { WARN, INFO, ANY }

    /**
     * One NCCL format string as a release prints it.
     *
     * @param file   NCCL source file that prints it
     * @param since  first release tag (without {@code v} and the package suffix) that prints it
     * @param until  last release tag read that prints it
     * @param format the printf format, or for ANY rules the string NCCL returns
     */
    public record Format(String file, String since, String until, String format) {
        private static final String CONVERSION = "%[-0-9.*]*[lhz]*[a-zA-Z]";

        /** Whether this format prints the text: every conversion stands for any text. */
        boolean prints(String text) {
            StringBuilder b = new StringBuilder();
            for (String part : format.split(CONVERSION, -1)) {
                b.append(b.isEmpty() ? "" : ".*?").append(Pattern.quote(part));
            }
            return Pattern.compile(b.toString()).matcher(text).matches();
        }

        /** How much of the format's literal text the text holds, part after part in order, from its start. */
        int partsFollowed(String text) {
            int at = 0;
            int n = 0;
            for (String part : format.split(CONVERSION, -1)) {
                int found = text.indexOf(part, at);
                if (found < 0) {
                    break;
                }
                at = found + part.length();
                n += part.length();
            }
            return n;
        }

        @Override
        public String toString() {
            return file + " (NCCL " + (since.equals(until) ? since : since + "-" + until) + "): \"" + format + "\"";
        }
    }

    /**
     * A message pattern and the finding it gives.
     *
     * @param message {@code {group}} of the pattern, {@code {meaning}} / {@code {fix}} / {@code {statusName}} /
     *                {@code {resultName}} from the lookup table, {@code {peerText}} / {@code {addrText}} a group with
     *                its words, where present
     * @param lookup  the table that explains the status the line reports: ibv_wc_status, errno or nccl_result
     * @param args    values for the formats' {@code %s} conversions, in order, in the test that prints each format
     * @param carrier for ANY rules, the line that carries NCCL's string in the test ({@code %s} for the string)
     * @param source  where set, the rule reads only WARNs printed from a source file this pattern finds
     *                ({@code nvls\.cc}: a CUDA failure while NVLS is set up); null for any
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Rule(String id, Level level, String pattern, String code, Severity severity, String message,
                       String fix, String lookup, List<String> args, String carrier, String source,
                       List<Format> formats) {
        public Rule {
            args = args == null ? List.of() : List.copyOf(args);
            formats = List.copyOf(formats);
        }

        Pattern compiled() {
            return Compiled.of(pattern);
        }

        /**
         * The format this message was printed from: one that prints it whole before one it only begins (a poster's
         * cut line follows the start of its format only), then the one whose literal text it holds most of
         * ({@code Net : Connect to} is more than {@code : Connect to}), the newest release's among equals.
         */
        public Format citedFor(String text) {
            Format best = null;
            int most = -1;
            for (int i = formats.size() - 1; i >= 0; i--) {
                int n = (formats.get(i).prints(text) ? 1_000_000 : 0) + formats.get(i).partsFollowed(text);
                if (n > most) {
                    most = n;
                    best = formats.get(i);
                }
            }
            return best;
        }
    }

    /** A message pattern for a fact the diagnosis gathers ({@code no-ib-device}, {@code gdr-disabled}). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Fact(String id, Level level, String pattern, List<String> args, List<Format> formats) {
        public Fact {
            args = args == null ? List.of() : List.copyOf(args);
            formats = List.copyOf(formats);
        }

        public boolean matches(String text) {
            return Compiled.of(pattern).matcher(text).find();
        }
    }

    /** What a status means and the fix that fits it; {@code severity} for an ncclResult_t (INFO: not an error). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Meaning(String name, String text, Severity severity, String meaning, String fix) { }

    /** Patterns compiled once. */
    private static final class Compiled {
        private static final Map<String, Pattern> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

        static Pattern of(String regex) {
            return CACHE.computeIfAbsent(regex, Pattern::compile);
        }
    }

    public static NcclRules table() {
        return TABLE;
    }

    private static NcclRules load() {
        try (InputStream in = NcclRules.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                    .readValue(in, NcclRules.class);
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE + ": " + e.getMessage(), e);
        }
    }

    public Fact fact(String id) {
        return facts.stream().filter(f -> f.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no fact " + id + " in " + RESOURCE));
    }

    /** The first rule of this level that matches the message, with its match. */
    public Optional<Match> match(Level level, String text) {
        return match(level, text, null);
    }

    /** The same, for a WARN printed from this NCCL source file (null where its prefix names none). */
    public Optional<Match> match(Level level, String text, String sourceFile) {
        for (Rule r : rules) {
            if (r.level() != level || r.source() != null && (sourceFile == null
                    || !Compiled.of(r.source()).matcher(sourceFile).find())) {
                continue;
            }
            Matcher m = r.compiled().matcher(text);
            if (m.find()) {
                return Optional.of(new Match(r, m.toMatchResult(), groups(r, m), lookup(r, m)));
            }
        }
        return Optional.empty();
    }

    private static Map<String, String> groups(Rule r, Matcher m) {
        Map<String, String> g = new java.util.TreeMap<>();
        Matcher names = Pattern.compile("\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>").matcher(r.pattern());
        while (names.find()) {
            String v = m.group(names.group(1));
            if (v != null) {
                // errno2, addr2: a second spelling of one group in an alternation
                g.putIfAbsent(names.group(1).replaceFirst("\\d$", ""), v.strip());
            }
        }
        return g;
    }

    private Meaning lookup(Rule r, Matcher m) {
        if (r.lookup() == null) {
            return null;
        }
        Map<String, String> g = groups(r, m);
        return switch (r.lookup()) {
            case "ibv_wc_status" -> ibvWcStatus.get(g.get("status"));
            case "errno" -> g.containsKey("errno") ? errno.get(g.get("errno")) : null;
            case "nccl_result" -> result(g.get("result"));
            default -> throw new IllegalStateException("rule " + r.id() + ": unknown lookup " + r.lookup());
        };
    }

    /** An ncclResult_t by its number, its enum name or the text ncclGetErrorString gives. */
    Meaning result(String value) {
        if (value == null) {
            return null;
        }
        if (ncclResult.containsKey(value)) {
            return ncclResult.get(value);
        }
        return ncclResult.values().stream().filter(x -> x.name().equals(value) || x.text().startsWith(value))
                .findFirst().orElse(null);
    }

    /**
     * A rule that matched one message.
     *
     * @param groups  the pattern's named groups that matched
     * @param meaning what the reported status means, null where the rule has no lookup or the status is not in it
     */
    public record Match(Rule rule, java.util.regex.MatchResult result, Map<String, String> groups, Meaning meaning) {

        /** The finding's severity: the rule's, or the result's where an ncclResult_t is not an error. */
        public Severity severity() {
            return meaning != null && meaning.severity() != null && meaning.severity() == Severity.INFO
                    ? Severity.INFO : rule.severity();
        }

        public String message() {
            return fill(rule.message());
        }

        public String fix() {
            String f = fill(rule.fix());
            return f.endsWith("; ") ? f.substring(0, f.length() - 2) : f;
        }

        private String fill(String template) {
            Map<String, String> v = new java.util.HashMap<>(groups);
            String generic = "status not in diagnose's table";
            v.put("meaning", meaning == null ? generic : meaning.meaning());
            v.put("fix", meaning == null ? "" : meaning.fix());
            v.put("statusName", meaning == null ? "status " + groups.getOrDefault("status", "?") : meaning.name());
            v.put("resultName", meaning == null ? "result " + groups.getOrDefault("result", "?") : meaning.name());
            v.put("peerText", groups.containsKey("peer") ? " talking to " + groups.get("peer") : "");
            v.put("vendorText", groups.containsKey("vendor") ? ", vendor error " + groups.get("vendor") : "");
            v.put("addrText", groups.containsKey("addr") ? " (to " + groups.get("addr") + ")" : "");
            v.putIfAbsent("errno", "no errno in the line");
            v.putIfAbsent("thread", "");
            Matcher m = Pattern.compile("\\{(\\w+)}").matcher(template);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, Matcher.quoteReplacement(v.getOrDefault(m.group(1), "?")));
            }
            m.appendTail(out);
            return out.toString().replace("; ;", ";").replaceAll(";\\s*$", "").replace(": ;", ":");
        }
    }
}
