package org.ncclharness.calibration.format;

import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.RowNames;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.CollectiveEvidence;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Trailer;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Sweep JSON: nccl-tests' {@code -J} layout (src/util.cu, file version 3) wherever it has a field, so tools
 * written for nccl-tests' JSON read ours, plus an {@code nccl_harness} object with what nccl-tests does not
 * record (provenance, collective, hardware, notes, and in {@code source} what the run's input stated besides its
 * tables: the reader's typed facts, which this class carries without reading them). Reads both nccl-tests' own
 * files and ours; a file without {@code source} (nccl-tests', an earlier release's) reads as stating nothing more.
 * Our objects name their fields as nccl-tests does ({@link JsonNames}) from version 2; version 1 is still read.
 */
public final class SweepJson {

    /**
     * {@code nccl_harness}'s provenance, hardware, run and source in nccl-tests' style ({@code gpu_model});
     * {@code nccl-harness/sweep/1}, with the values' Java names there ({@code gpuModel}), is still read.
     */
    public static final String SCHEMA = "nccl-harness/sweep/2";
    public static final String SWEEPS_SCHEMA = "nccl-harness/sweeps/1";
    private static final int NCCL_TESTS_JSON_VERSION = 3;
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SweepJson() {
    }

    /**
     * A sweep as read from JSON, with the per-iteration objects and per-process times when the file has them.
     *
     * @param source the {@code nccl_harness.source} object, null where the file has none
     */
    public record Read(Sweep sweep, List<PerIteration> perIteration, List<RankTimes> rankTimes,
                       List<NcclEstimate> ncclEstimates, JsonNode source) {

        public Read(Sweep sweep, List<PerIteration> perIteration, List<RankTimes> rankTimes, JsonNode source) {
            this(sweep, perIteration, rankTimes, List.of(), source);
        }
    }

    /** True when a text looks like JSON (its first non-blank character is '{'). */
    public static boolean looksLikeJson(String text) {
        return text.stripLeading().startsWith("{");
    }

    /**
     * What a run knows beyond its sweep: nccl-tests' top-level fields and our additions.
     *
     * @param startTime      {@code %Y-%m-%d %H:%M:%S}, null when unknown (a replay, a converted log)
     * @param args           the full command line
     * @param env            {@code K=V} strings of the environment that shaped the run
     * @param ncclVersion    the NCCL version code (23007), null when unknown
     * @param minBwOkay      nccl-tests' {@code average_bus_bandwidth.okay}: {@code unchecked}, {@code true},
     *                       {@code false}
     * @param harness        fields added to the {@code nccl_harness} object (calibration, algorithm, ...)
     * @param source         what the run's input stated besides its tables ({@code nccl_harness.source}), null
     *                       where it stated nothing more
     */
    public record Context(String startTime, String endTime, List<String> args, List<String> env,
                          Integer ncclVersion, String minBwOkay, ObjectNode harness, JsonNode source) {

        public static Context none() {
            return new Context(null, null, List.of(), List.of(), null, "unchecked", MAPPER.createObjectNode(), null);
        }

        /** This context with the input's facts to keep, or none (null). */
        public Context withSource(JsonNode facts) {
            return new Context(startTime, endTime, args, env, ncclVersion, minBwOkay, harness, facts);
        }
    }

    /** A fresh object for {@link Context#harness()}. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static String write(Sweep sweep, List<PerIteration> perIteration) {
        return write(sweep, perIteration, Context.none());
    }

    public static String write(Sweep sweep, List<PerIteration> perIteration, Context ctx) {
        return write(sweep, perIteration, List.of(), ctx);
    }

    /**
     * @param rankTimes per row and placement, the fastest and slowest process: in the row's own
     *                  {@code nccl_harness} object as {@code out_of_place_rank_time} / {@code in_place_rank_time}
     *                  {@code {"min_us", "max_us"}}
     */
    public static String write(Sweep sweep, List<PerIteration> perIteration, List<RankTimes> rankTimes, Context ctx) {
        return write(sweep, perIteration, rankTimes, List.of(), ctx);
    }

    /**
     * @param ncclEstimates per row, NCCL's own estimate (ncclGroupSimulateEnd): in the row's {@code nccl_harness}
     *                      object as {@code nccl_estimate_time_us}, beside the measured times
     */
    public static String write(Sweep sweep, List<PerIteration> perIteration, List<RankTimes> rankTimes,
                               List<NcclEstimate> ncclEstimates, Context ctx) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("version", NCCL_TESTS_JSON_VERSION);
        if (ctx.startTime() != null) {
            root.put("start_time", ctx.startTime());
        }
        root.set("args", MAPPER.valueToTree(ctx.args()));
        root.set("env", MAPPER.valueToTree(ctx.env()));
        if (ctx.ncclVersion() != null) {
            root.put("nccl_version", ctx.ncclVersion());
        }
        ObjectNode config = root.putObject("config");
        RunInfo run = sweep.run();
        if (run != null) {
            putIfSet(config, "nthreads", run.nThread());
            putIfSet(config, "ngpus", run.nGpus());
            putIfSet(config, "minimum_bytes", run.minBytes());
            putIfSet(config, "maximum_bytes", run.maxBytes());
            step(config, run.step());
            putIfSet(config, "warmup_iters", run.warmupIters());
            putIfSet(config, "iterations", run.iters());
            putIfSet(config, "aggregated_iterations", run.aggIters());
            putIfSet(config, "validation", run.validation());
            putIfSet(config, "graph", run.graph());
        }
        ArrayNode devices = config.putArray("devices");
        for (Device d : sweep.devices()) {
            ObjectNode o = devices.addObject();
            o.put("rank", d.rank());
            o.put("group", d.group() == null ? 0 : d.group());
            o.put("pid", d.pid());
            o.put("hostname", d.host());
            o.put("device", d.device());
            o.put("device_hex", d.busId());
            o.put("device_info", d.name());
        }
        ArrayNode results = root.putArray("results");
        for (int i = 0; i < sweep.rows().size(); i++) {
            Measurement m = sweep.rows().get(i);
            ObjectNode r = results.addObject();
            r.put("size", m.sizeBytes());
            r.put("count", m.count());
            r.put("type", m.type());
            r.put("redop", m.redop());
            r.put("root", String.format("%6d", m.root()));
            half(r.putObject("out_of_place"), m.outOfPlace());
            perIter(r, "out_of_place_per_iter", perIteration, i, Placement.OUT_OF_PLACE);
            half(r.putObject("in_place"), m.inPlace());
            perIter(r, "in_place_per_iter", perIteration, i, Placement.IN_PLACE);
            r.put("experiment_name", "");
            rankTimes(r, rankTimes, i);
            for (NcclEstimate e : ncclEstimates) {
                if (e.row() == i) {
                    ObjectNode ours = r.has("nccl_harness") ? (ObjectNode) r.get("nccl_harness")
                            : r.putObject("nccl_harness");
                    ours.put(NcclEstimate.FIELD, e.timeUs());
                }
            }
        }
        Trailer stated = sweep.trailer();
        long bad = NcclTestsTableWriter.outOfBounds(sweep);
        ObjectNode oob = root.putObject("out_of_bounds");
        oob.put("count", bad);
        oob.put("okay", bad == 0 ? "true" : "false");
        ObjectNode avg = root.putObject("average_bus_bandwidth");
        avg.put("bandwidth", stated.statesAverage() ? stated.avgBusBwGBps()
                : NcclTestsTableWriter.averageBusBw(sweep.rows()));
        avg.put("okay", ctx.minBwOkay());
        root.putArray("errors");
        if (ctx.endTime() != null) {
            root.put("end_time", ctx.endTime());
        }
        ObjectNode ours = root.putObject("nccl_harness");
        ours.put("schema", SCHEMA);
        ours.set("provenance", JsonNames.toSnake(MAPPER.valueToTree(sweep.provenance())));
        ours.put("collective", sweep.collective().testName());
        ours.set("hardware", JsonNames.toSnake(MAPPER.valueToTree(sweep.hardware())));
        ours.set("run", JsonNames.toSnake(MAPPER.valueToTree(sweep.run())));
        ours.set("notes", MAPPER.valueToTree(Note.texts(sweep.notes())));
        ObjectNode trailer = ours.putObject("trailer");
        if (stated.outOfBounds() != null) {
            trailer.put("out_of_bounds", stated.outOfBounds());
        }
        trailer.put("average_source", stated.statesAverage() ? "stated" : "recomputed");
        if (stated.minBwStatus() != null) {
            trailer.put("min_bw_status", stated.minBwStatus());
        }
        if (ctx.source() != null) {
            ours.set("source", JsonNames.toSnake(ctx.source()));
        }
        ours.setAll(ctx.harness());
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sweep JSON could not be written", e);
        }
    }

    /**
     * Several sweeps (the tables of one log) in one document: {@code {"schema": "nccl-harness/sweeps/1",
     * "sweeps": [...]}}, each element a sweep document as {@link #write} makes it. One sweep is written as
     * that sweep's document alone, which nccl-tests' own tools read.
     */
    public static String writeAll(List<Sweep> sweeps) {
        return writeAll(sweeps, Context.none());
    }

    /** {@link #writeAll(List)}, each sweep with the context of their one run (the input's facts: every table's). */
    public static String writeAll(List<Sweep> sweeps, Context ctx) {
        if (sweeps.size() == 1) {
            return write(sweeps.get(0), List.of(), ctx);
        }
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SWEEPS_SCHEMA);
        ArrayNode all = root.putArray("sweeps");
        try {
            for (Sweep s : sweeps) {
                all.add(MAPPER.readTree(write(s, List.of(), ctx)));
            }
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sweeps JSON could not be written", e);
        }
    }

    /** RunInfo keeps the preamble's {@code 2(factor)} / {@code 1048576(bytes)}; -J splits it in two fields. */
    private static void step(ObjectNode config, String step) {
        if (step == null) {
            return;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\((factor|bytes)\\)").matcher(step);
        if (m.matches()) {
            config.put(m.group(2).equals("factor") ? "step_factor" : "step_bytes", Long.parseLong(m.group(1)));
        }
    }

    private static void putIfSet(ObjectNode o, String name, Number v) {
        if (v != null) {
            o.put(name, v.longValue());
        }
    }

    private static void half(ObjectNode o, Half h) {
        o.put("time", h.timeUs());
        o.put("alg_bw", h.algBwGBps());
        o.put("bus_bw", h.busBwGBps());
        if (h.wrong() == null) {
            o.putNull("nwrong");
        } else {
            o.put("nwrong", h.wrong());
        }
        if (h.maxError() != null) {
            o.put("error", h.maxError());
        }
    }

    private static void perIter(ObjectNode r, String name, List<PerIteration> all, int row, Placement p) {
        for (PerIteration pi : all) {
            if (pi.row() == row && pi.placement() == p) {
                ObjectNode o = r.putObject(name);
                o.put("skipped_iterations", pi.skippedIterations());
                o.put("min_us", pi.minUs());
                o.put("max_us", pi.maxUs());
                o.put("avg_us", pi.avgUs());
                o.put("p50_us", pi.p50Us());
                o.put("p95_us", pi.p95Us());
                o.put("p99_us", pi.p99Us());
                o.put("stdev_us", pi.stdevUs());
                o.put("cv_pct", pi.cvPct());
                o.set("times_us", MAPPER.valueToTree(pi.timesUs()));
                if (!pi.perProcessMaxTimesUs().isEmpty()) {
                    o.set("per_process_max_times_us", MAPPER.valueToTree(pi.perProcessMaxTimesUs()));
                }
            }
        }
    }

    private static String rankTimeField(Placement p) {
        return p == Placement.OUT_OF_PLACE ? "out_of_place_rank_time" : "in_place_rank_time";
    }

    private static void rankTimes(ObjectNode r, List<RankTimes> all, int row) {
        for (RankTimes t : all) {
            if (t.row() == row) {
                ObjectNode ours = r.has("nccl_harness") ? (ObjectNode) r.get("nccl_harness") : r.putObject("nccl_harness");
                ObjectNode o = ours.putObject(rankTimeField(t.placement()));
                o.put("min_us", t.minUs());
                o.put("max_us", t.maxUs());
            }
        }
    }

    private static void readRankTimes(String file, JsonNode r, int row, String where, List<RankTimes> out) {
        for (Placement p : Placement.values()) {
            JsonNode o = r.path("nccl_harness").path(rankTimeField(p));
            if (o.isObject()) {
                String at = where + ".nccl_harness." + rankTimeField(p);
                out.add(new RankTimes(row, p, required(file, o.get("min_us"), at + ".min_us"),
                        required(file, o.get("max_us"), at + ".max_us")));
            }
        }
    }

    private static double required(String file, JsonNode n, String where) {
        Double v = num(file, n, where);
        if (v == null) {
            throw new InputException(file, 0, where + " missing");
        }
        return v;
    }

    /** Reads a single-sweep document: nccl-tests' {@code -J} JSON or ours; a missing field names its result index. */
    public static Read read(String file, String text) {
        List<Read> all = readAll(file, text);
        if (all.size() != 1) {
            throw new InputException(file, 0, "holds " + all.size() + " sweeps where one was expected");
        }
        return all.get(0);
    }

    /** Reads a sweep document or a {@link #writeAll} document of several. */
    public static List<Read> readAll(String file, String text) {
        return readAll(file, text, null);
    }

    /**
     * Reads a sweep document or a {@link #writeAll} document of several.
     *
     * @param given the collective the user states for tables whose file does not name one (as for a log), or null
     */
    public static List<Read> readAll(String file, String text, Collective given) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
        } catch (JsonProcessingException e) {
            throw new InputException(file, e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    "not valid JSON: " + Echo.quote(e.getOriginalMessage()));
        }
        if (root.path("sweeps").isArray()) {
            List<Read> out = new ArrayList<>();
            for (int i = 0; i < root.get("sweeps").size(); i++) {
                out.add(readOne(file, root.get("sweeps").get(i), "sweeps[" + i + "].", given));
            }
            if (out.isEmpty()) {
                throw new InputException(file, 0, "the \"sweeps\" array is empty");
            }
            return out;
        }
        return List.of(readOne(file, root, "", given));
    }

    private static Read readOne(String file, JsonNode root, String at, Collective given) {
        JsonNode results = root.path("results");
        if (!results.isArray() || results.isEmpty()) {
            throw new InputException(file, 0, at + "no \"results\" array: expected nccl-tests -J JSON or a harness "
                    + "sweep JSON");
        }
        List<Measurement> rows = new ArrayList<>();
        List<PerIteration> per = new ArrayList<>();
        List<RankTimes> rankTimes = new ArrayList<>();
        List<NcclEstimate> estimates = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            String where = at + "results[" + i + "]";
            String type = text(file, r, "type", where);
            String redop = text(file, r, "redop", where);
            RowNames.problem(type, redop).ifPresent(p -> {
                throw new InputException(file, 0, where + ": " + p);
            });
            rows.add(new Measurement(integer(file, r, "size", where), integer(file, r, "count", where), type, redop,
                    root(file, r, where),
                    readHalf(file, r.path("out_of_place"), where + ".out_of_place"),
                    readHalf(file, r.path("in_place"), where + ".in_place")));
            readPerIter(r.path("out_of_place_per_iter"), i, Placement.OUT_OF_PLACE, per);
            readPerIter(r.path("in_place_per_iter"), i, Placement.IN_PLACE, per);
            readRankTimes(file, r, i, where, rankTimes);
            JsonNode est = r.path("nccl_harness").get(NcclEstimate.FIELD);
            if (est != null) {
                estimates.add(new NcclEstimate(i, required(file, est, where + ".nccl_harness." + NcclEstimate.FIELD)));
            }
        }
        List<Device> devices = new ArrayList<>();
        for (JsonNode d : root.path("config").path("devices")) {
            devices.add(new Device(d.path("rank").asInt(), d.path("group").asInt(), d.path("pid").asLong(),
                    d.path("hostname").asText(), d.path("device").asInt(), d.path("device_hex").asText(),
                    d.path("device_info").asText()));
        }
        JsonNode ours = javaNamed(root.path("nccl_harness"));
        try {
            Provenance prov = ours.has("provenance") ? MAPPER.treeToValue(ours.get("provenance"), Provenance.class)
                    : new Provenance(SourceKind.STORED, file, null, "stored nccl-tests JSON: " + file);
            if (prov == null || prov.kind() == null || prov.source() == null) {
                throw new InputException(file, 0, at + "nccl_harness.provenance needs \"kind\" and \"source\"");
            }
            if (prov.label() == null || prov.label().isBlank()) {
                // the CSV refuses an empty provenance_label: a JSON that converts to one is refused here alike
                throw new InputException(file, 0, at + "nccl_harness.provenance.label is empty: say where the rows"
                        + " came from (e.g. stored measurements: run.txt)");
            }
            // an explicit null states nothing, as an absent field does
            Hardware hw = ours.hasNonNull("hardware") ? MAPPER.treeToValue(ours.get("hardware"), Hardware.class)
                    : Hardware.unknown();
            RunInfo run = ours.hasNonNull("run") ? MAPPER.treeToValue(ours.get("run"), RunInfo.class) : RunInfo.unknown();
            // the file keeps a note's words, not its kind
            List<Note> notes = new ArrayList<>();
            ours.path("notes").forEach(n -> notes.add(Note.info(n.asText())));
            Collective coll = Collective.UNKNOWN;
            if (ours.has("collective")) {
                String name = ours.path("collective").asText();
                coll = Collective.byName(name).orElseThrow(() -> new InputException(file, 0, at
                        + "nccl_harness.collective " + Echo.quote(name) + " is not a collective nccl-tests runs"));
            }
            if (!coll.known()) {
                // nccl-tests' own file: the program name is in its command line, else the rows tell; one of ours
                // whose collective was not known is decided again, as a CSV's is, so that --collective applies
                Collective named = programIn(root.path("args"));
                CollectiveEvidence e = CollectiveEvidence.decide(named, given, hw.ranks() != null ? hw.ranks()
                        : devices.isEmpty() ? null : devices.size(), rows, true, true);
                coll = e.collective();
                evidence(notes, e.notes());
                if (hw.ranks() == null && e.ranks() != null) {
                    hw = hw.withRanks(e.ranks());
                }
            }
            Sweep sweep = new Sweep(prov, coll, run, hw, devices, rows, notes, trailer(root, ours));
            return new Read(sweep, per, rankTimes, estimates, ours.get("source"));
        } catch (JsonProcessingException e) {
            throw new InputException(file, 0, at + "the nccl_harness object is not valid: "
                    + JsonProblem.describe(e));
        }
    }

    /**
     * Our object with its record-valued fields (provenance, hardware, run, source) under the values' Java names, as
     * version 1 wrote them and the records read them; the object's own fields keep nccl-tests' names in both.
     */
    private static JsonNode javaNamed(JsonNode ours) {
        if (!(ours instanceof ObjectNode o) || !SCHEMA.equals(o.path("schema").asText())) {
            return ours;
        }
        ObjectNode copy = o.deepCopy();
        for (String field : List.of("provenance", "hardware", "run", "source")) {
            if (copy.has(field)) {
                copy.set(field, JsonNames.toCamel(copy.get(field)));
            }
        }
        return copy;
    }

    /** The trailer a document states: nccl-tests' own fields, unless our writer marked the average recomputed. */
    private static Trailer trailer(JsonNode root, JsonNode ours) {
        JsonNode avg = root.path("average_bus_bandwidth").path("bandwidth");
        boolean recomputed = ours.path("trailer").path("average_source").asText("stated").equals("recomputed");
        Double average = avg.isNumber() && !recomputed ? avg.asDouble() : null;
        String oob = ours.path("trailer").path("out_of_bounds").asText(null);
        if (oob == null && root.path("out_of_bounds").has("count") && !ours.has("trailer")) {
            JsonNode o = root.get("out_of_bounds");
            oob = o.path("count").asText() + (o.path("okay").asText().equals("true") ? " OK" : " FAILED");
        }
        String status = ours.path("trailer").path("min_bw_status").asText(null);
        return oob == null && average == null ? Trailer.NONE : new Trailer(oob, average, status);
    }

    /**
     * The notes of a decision made on reading, beside the file's: where the file already holds the same words (the
     * decision its writer made), that note takes the decision's kind in place, so nothing is said twice.
     */
    private static void evidence(List<Note> stored, List<Note> decided) {
        for (Note d : decided) {
            int same = Note.texts(stored).indexOf(d.text());
            if (same >= 0) {
                stored.set(same, d);
            } else {
                stored.add(d);
            }
        }
    }

    private static Collective programIn(JsonNode args) {
        for (JsonNode a : args) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("([a-z_]+)_perf").matcher(a.asText());
            if (m.find() && Collective.byName(m.group(1)).isPresent()) {
                return Collective.byName(m.group(1)).get();
            }
        }
        return null;
    }

    /** nccl-tests writes the root as text ({@code "    -1"}); ours the same. */
    private static int root(String file, JsonNode r, String where) {
        JsonNode n = r.get("root");
        if (n == null || n.isNull()) {
            return -1;
        }
        String t = n.asText().trim();
        if (!t.matches("-?\\d{1,10}") || Long.parseLong(t) < -1 || Long.parseLong(t) > Integer.MAX_VALUE) {
            throw new InputException(file, 0, where + ".root " + Echo.quote(n.toString()) + " is not a rank "
                    + "(an integer from -1)");
        }
        return Integer.parseInt(t);
    }

    private static Half readHalf(String file, JsonNode h, String where) {
        if (h.isMissingNode() || h.isNull()) {
            return Half.empty();
        }
        JsonNode time = h.has("time") ? h.get("time") : h.get("cpu_time");
        return new Half(num(file, time, where + ".time"), num(file, h.get("alg_bw"), where + ".alg_bw"),
                num(file, h.get("bus_bw"), where + ".bus_bw"), num(file, h.get("nwrong"), where + ".nwrong"),
                num(file, h.get("error"), where + ".error"));
    }

    /** nccl-tests writes doubles with %lf and NaN as "nan"; null or absent means the value is not there. */
    private static Double num(String file, JsonNode n, String where) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        if (n.isNumber()) {
            double v = n.asDouble();
            if (Double.isInfinite(v) || v < 0) {
                throw new InputException(file, 0, where + " " + Echo.quote(n.toString())
                        + " is not a finite non-negative number");
            }
            return v;
        }
        if (n.isTextual() && n.asText().equalsIgnoreCase("nan")) {
            return null;
        }
        throw new InputException(file, 0, where + " is not a number: " + Echo.quote(n.toString()));
    }

    private static long integer(String file, JsonNode r, String field, String where) {
        JsonNode n = r.get(field);
        if (n == null || !n.canConvertToExactIntegral() || !n.canConvertToLong() || n.asLong() < 0) {
            throw new InputException(file, 0, where + "." + field + " missing or not a non-negative integer"
                    + (n == null ? "" : ": " + Echo.quote(n.toString())));
        }
        return n.asLong();
    }

    private static String text(String file, JsonNode r, String field, String where) {
        JsonNode n = r.get(field);
        if (n == null || !n.isTextual()) {
            throw new InputException(file, 0, where + "." + field + " missing or not a string");
        }
        return n.asText();
    }

    private static void readPerIter(JsonNode o, int row, Placement p, List<PerIteration> out) {
        if (!o.isObject()) {
            return;
        }
        List<Double> times = new ArrayList<>();
        o.path("times_us").forEach(t -> times.add(t.asDouble()));
        List<List<Double>> perProc = new ArrayList<>();
        o.path("per_process_max_times_us").forEach(a -> {
            List<Double> l = new ArrayList<>();
            a.forEach(t -> l.add(t.asDouble()));
            perProc.add(l);
        });
        out.add(new PerIteration(row, p, o.path("skipped_iterations").asInt(), o.path("min_us").asDouble(),
                o.path("max_us").asDouble(), o.path("avg_us").asDouble(), o.path("p50_us").asDouble(),
                o.path("p95_us").asDouble(), o.path("p99_us").asDouble(), o.path("stdev_us").asDouble(),
                o.path("cv_pct").asDouble(), times, perProc));
    }
}
