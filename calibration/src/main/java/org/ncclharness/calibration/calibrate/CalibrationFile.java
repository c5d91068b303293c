package org.ncclharness.calibration.calibrate;

import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.format.JsonNames;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.ncclharness.calibration.measure.InputException;

/**
 * A calibration report read back ({@code predict --calibration FILE}, {@code check --calibration FILE}): per
 * dataset its models, each rebuilt from its form, configuration and parameters so it predicts exactly what the
 * calibration fitted.
 *
 * @param file     the file as the user named it
 * @param datasets the entries, in file order
 */
public record CalibrationFile(String file, List<Entry> datasets) {

    /**
     * One dataset of the report.
     *
     * @param kind    {@code single-tier}, {@code deferred}, ...
     * @param ranks   N, null when unknown
     * @param models  the calibrated models (none for a deferred entry)
     * @param best    the best model's name, null when there are no models
     * @param reason  why a deferred entry was not calibrated, else null
     * @param collective the collective calibrated ({@code all_reduce}), null in reports that predate it
     * @param gpuModel   the GPU name the run stated, null when it did not
     * @param configurations the domains x GPUs of every run a multi-domain entry was fitted on (several for a
     *                       joint fit), empty for one tier
     * @param intra      a two-tier entry's fabric inside a domain, null for one tier or when not stated
     * @param inter      a two-tier entry's fabric between domains, null for one tier or when not stated
     * @param nicsPerDomain a two-tier entry's NICs per domain, null when not known
     * @param networkLineRateGBps the network line rate per domain the entry was judged against (its NICs at their
     *                            rate, the dataset's NIC speed where the fabric has no fixed one), null when not known
     */
    public record Entry(String id, String kind, Integer ranks, Integer nodes, String interconnect,
                        List<CalibratedModel> models, String best, String reason, String collective,
                        String gpuModel, List<TwoTierConfig> configurations, String intra, String inter,
                        Integer nicsPerDomain, Double networkLineRateGBps) {

        public Entry {
            configurations = List.copyOf(configurations);
        }

        public Optional<CalibratedModel> model(String name) {
            return models.stream().filter(m -> m.name().equals(name)).findFirst();
        }

        /** The best model (lowest leave-one-out RMSPE), empty for an entry with no models. */
        public Optional<CalibratedModel> bestModel() {
            return best == null ? Optional.empty() : model(best);
        }
    }

    /**
     * One model rebuilt.
     *
     * @param theta parameters in {@link CostModel#parameterNames()} order
     * @param inSampleRmspePct overall in-sample RMSPE, null when there were no points
     * @param leaveOneOutRmspePct overall leave-one-out RMSPE, null when not scored
     * @param minBytes the smallest size the model's residuals cover, null where it has none
     * @param maxBytes the largest, null where it has none
     * @param description what the model is and what it was fitted on, null where the report has none
     */
    public record CalibratedModel(String name, CostModel model, double[] theta, Double inSampleRmspePct,
                                  Double leaveOneOutRmspePct, List<String> undetermined, Double minBytes,
                                  Double maxBytes, String description) {

        /** {@code undetermined}: the parameters whose profile the data left undetermined (two-tier fits). */
        public CalibratedModel {
            theta = theta.clone();
            undetermined = List.copyOf(undetermined);
        }

        @Override
        public double[] theta() {
            return theta.clone();
        }

        public double timeUs(double bytes) {
            return model.timeUs(bytes, theta);
        }
    }

    public static CalibrationFile read(Path path) {
        String file = path.toString();
        String text;
        try {
            text = Files.readString(path);
        } catch (NoSuchFileException e) {
            throw new InputException(file, 0, "no such file");
        } catch (IOException e) {
            throw new InputException(file, 0, "cannot read: " + e.getMessage());
        }
        return parse(file, text);
    }

    public static CalibrationFile parse(String file, String text) {
        JsonNode root;
        try {
            root = CalibrationJson.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            if (!text.stripLeading().startsWith("{") && !text.stripLeading().startsWith("[")) {
                // a log or CSV where a report was expected: say what to run, not where the JSON parser stopped
                throw new InputException(file, 1, "not a calibration report but measurements (a log or CSV): calibrate"
                        + " them first, harness.jar calibrate " + file + " "
                        + Advice.with(Setting.REPORT_JSON, "cal.json") + ", then pass "
                        + Advice.with(Setting.CALIBRATION, "cal.json"));
            }
            throw new InputException(file, e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    "not valid JSON: " + e.getOriginalMessage());
        }
        String schema = root == null ? "" : root.path("schema").asText();
        if (CalibrationReport.SCHEMA.equals(schema)) {
            // version 2 names its fields as nccl-tests does; what follows reads the values' Java names (version 1)
            root = JsonNames.toCamel(root);
        } else if (!CalibrationReport.SCHEMA_V1.equals(schema)) {
            throw new InputException(file, 1, "not a calibration report: expected \"schema\": \""
                    + CalibrationReport.SCHEMA + "\" or \"" + CalibrationReport.SCHEMA_V1 + "\" (write one with:"
                    + " harness.jar calibrate " + Advice.with(Setting.REPORT_JSON, "FILE") + ")");
        }
        List<Entry> out = new ArrayList<>();
        for (JsonNode d : root.path("datasets")) {
            out.add(entry(file, d));
        }
        return new CalibrationFile(file, List.copyOf(out));
    }

    private static Entry entry(String file, JsonNode d) {
        String id = text(d, "id");
        List<CalibratedModel> models = new ArrayList<>();
        for (JsonNode m : d.path("models")) {
            models.add(model(file, id, m));
        }
        return new Entry(id, text(d, "kind"), integer(d, "ranks"), integer(d, "nodes"),
                text(d.path("interconnect"), "name"), List.copyOf(models), text(d, "best"), text(d, "reason"),
                text(d, "collective"), text(d.path("hardware"), "gpuModel"), configurations(d),
                text(d.path("fabric"), "intra"), text(d.path("fabric"), "inter"), integer(d.path("fabric"),
                "nicsPerDomain"), number(d.path("fabric"), "networkLineRateGBps"));
    }

    private static List<TwoTierConfig> configurations(JsonNode d) {
        List<TwoTierConfig> out = new ArrayList<>();
        for (JsonNode c : d.path("configurations")) {
            if (c.path("domains").isInt() && c.path("gpusPerDomain").isInt()) {
                out.add(new TwoTierConfig(c.get("domains").asInt(), c.get("gpusPerDomain").asInt()));
            }
        }
        return out;
    }

    private static CalibratedModel model(String file, String id, JsonNode m) {
        String name = text(m, "name");
        try {
            CostModel model = ModelJson.read(m);
            List<String> names = model.parameterNames();
            double[] theta = new double[names.size()];
            for (int i = 0; i < theta.length; i++) {
                JsonNode v = m.path("parameters").get(names.get(i));
                if (v == null || !v.isNumber()) {
                    throw new IllegalArgumentException("parameter " + names.get(i) + " is missing");
                }
                theta[i] = v.asDouble();
            }
            JsonNode r = m.path("rmspe");
            List<String> undetermined = new ArrayList<>();
            for (JsonNode pr : m.path("profiles")) {
                if ("undetermined".equals(pr.path("identifiability").asText())) {
                    undetermined.add(pr.path("parameter").asText());
                }
            }
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (JsonNode res : m.path("residuals")) {
                lo = Math.min(lo, res.path("bytes").asDouble());
                hi = Math.max(hi, res.path("bytes").asDouble());
            }
            return new CalibratedModel(name, model, theta, number(r.path("inSample"), "overallPct"),
                    number(r.path("leaveOneOut"), "overallPct"), undetermined, lo <= hi ? lo : null,
                    lo <= hi ? hi : null, text(m, "description"));
        } catch (IllegalArgumentException e) {
            throw new InputException(file, 0, "dataset " + id + ", model " + name + ": " + e.getMessage());
        }
    }

    /** The entry with this id; an unknown id lists the known ones, those sharing the longest start with it first. */
    public Entry dataset(String id) {
        return datasets.stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow(() ->
                new InputException(file, 0, "no dataset " + id + " in this calibration; it has: " + ids(id)));
    }

    /** At most this many ids in a message: a whole-catalog report holds about a hundred. */
    public static final int IDS_SHOWN = 12;

    /** The entries' ids for a one-line message: all of them, or the first {@value #IDS_SHOWN} and the count. */
    public String ids() {
        return ids("");
    }

    /** As {@link #ids()}, the ids that start most like {@code near} first (a mistyped id finds its neighbours). */
    private String ids(String near) {
        String shown = datasets.stream().map(Entry::id)
                .sorted(Comparator.comparingInt((String i) -> -commonStart(i, near)))
                .limit(IDS_SHOWN).collect(Collectors.joining(", "));
        return datasets.size() <= IDS_SHOWN ? shown : shown + " and " + (datasets.size() - IDS_SHOWN) + " more;"
                + " jq -r '.datasets[].id' on the file lists all " + datasets.size();
    }

    private static int commonStart(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Integer integer(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isNumber() ? null : v.asInt();
    }

    private static Double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isNumber() ? null : v.asDouble();
    }
}
