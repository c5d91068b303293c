package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.format.PerIteration;
import org.ncclharness.calibration.format.RankTimes;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * README's table of JSON field names is what the writers emit: every object of every document kind, run on
 * bundled data as a user would ({@code calibrate --json -} of one and two tiers, a deferred entry, a joint fit and
 * the grid; a sweep replay's {@code -J -}; {@code convert --json -} and {@code diagnose --json -} of a log with
 * NCCL's INFO lines; and the live sweep's own fields, {@link #liveSweepDocument()}), with its fields in the order
 * written. Each field is in nccl-tests' style (lower-case words
 * joined by underscores). {@code -Ddocs.update=true} writes the table again.
 */
class JsonFieldsTableTest {

    private static final Path README = Path.of("../README.md");
    private static final String BEGIN = "<!-- json-fields:begin (JsonFieldsTableTest) -->\n";
    private static final String END = "<!-- json-fields:end -->";
    private static final String LOG = "../calibration/src/test/resources/logs/ncclinfo/"
            + "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt";
    /**
     * Objects keyed by data, not by field names: shown as one placeholder key. A grid's box is keyed by its axes as
     * docs/two-tier.md writes them ({@code u_NV}, {@code T_sw}).
     */
    private static final Map<String, String> DATA_KEYED = Map.of("unavailable", "<model>", "bands", "<size band>",
            "leave_one_out_pct", "<family>", "generalized_cross_validation_pct", "<family>", "environment",
            "<variable>", "box", "<grid axis>");
    private static final String STYLE = "[a-z][a-z0-9]*(_[a-z0-9]+)*";

    @Test
    void readmeListsEveryFieldTheWritersEmit() throws IOException {
        ObjectMapper json = new ObjectMapper();
        // document → object path → fields, in the order first written
        Map<String, Map<String, Set<String>>> fields = new LinkedHashMap<>();
        List<String[]> commands = List.of(
            new String[] {"calibrate", "h100_allreduce_8gpu_azure_ndv5", "a100_allreduce_16gpu_2node_aws_p4d_efa_eks",
                "a100_allreduce_10GiB_points_oci", "--json", "-"},
            new String[] {"calibrate", "--joint", "--json", "-"},
            new String[] {"calibrate", "../datasets/raw/h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk.txt",
                "--intra", "NVLink4", "--inter", "IB-NDR", "--grid", "--grid-points", "4", "--json", "-"},
            new String[] {"sweep", "--dataset", "a100_allreduce_16gpu_2node_oci_roce", "-J", "-"},
            new String[] {"convert", LOG, "--json", "-"},
            // nccl-tests <= 2.11's error column (a maximum deviation) is written as each half's error
            new String[] {"convert", "../datasets/raw/a100_allreduce_16gpu_2node_aws_p4d_efa_eks.txt", "--json", "-"},
            new String[] {"diagnose", LOG, "--json", "-"});
        for (String[] c : commands) {
            CliRun run = CliRun.of(c);
            assertThat(run.exitCode()).as(String.join(" ", c) + ": " + run.err()).isLessThanOrEqualTo(1);
            JsonNode root = json.readTree(run.out());
            String schema = root.has("schema") ? root.get("schema").asText()
                    : root.path("nccl_harness").path("schema").asText();
            walk(root, "(top)", fields.computeIfAbsent(schema, k -> new LinkedHashMap<>()), true);
        }
        JsonNode live = json.readTree(liveSweepDocument());
        walk(live, "(top)", fields.computeIfAbsent(live.path("nccl_harness").path("schema").asText(),
                k -> new LinkedHashMap<>()), true);
        StringBuilder table = new StringBuilder("| document | object | fields |\n|---|---|---|\n");
        List<String> offStyle = new ArrayList<>();
        fields.forEach((schema, objects) -> objects.forEach((path, names) -> {
            if (names.isEmpty()) {
                return;
            }
            table.append("| `").append(schema).append("` | `").append(path).append("` | ")
                    .append(String.join(", ", names.stream().map(n -> "`" + n + "`").toList())).append(" |\n");
            names.stream().filter(n -> !n.startsWith("<") && !n.matches(STYLE)).forEach(n -> offStyle.add(path + "."
                    + n));
        }));
        assertThat(offStyle).as("field names not in nccl-tests' style").isEmpty();
        GeneratedBlock.hold(README, BEGIN, END, table.toString());
    }

    /**
     * What a live sweep writes beyond a replay, which needs a GPU: nccl-tests' start and end times and NCCL version,
     * and per row the {@code -I 1} samples, every process's fastest and slowest time, and NCCL's own estimate
     * ({@code --nccl-estimate}). The same writer the live sweep calls, on a bundled table, one of each (and per placement) for its
     * first row.
     */
    private static String liveSweepDocument() {
        Sweep sweep = DatasetCatalog.bundled().get("h100_allreduce_8gpu_azure_ndv5").sweep();
        List<PerIteration> perIteration = new ArrayList<>();
        List<RankTimes> rankTimes = new ArrayList<>();
        for (Placement p : Placement.values()) {
            perIteration.add(new PerIteration(0, p, 1, 10, 12, 11, 11, 12, 12, 0.5, 4.5, List.of(10.0, 11.0, 12.0),
                    List.of(List.of(10.0, 11.0, 12.0))));
            rankTimes.add(new RankTimes(0, p, 10, 12));
        }
        SweepJson.Context ctx = new SweepJson.Context("2026-12-07 19:00:00", "2026-12-07 19:00:05",
                List.of("sweep", "-I", "1"), List.of(), 23007, "unchecked", SweepJson.object(), null);
        return SweepJson.write(sweep, perIteration, rankTimes, List.of(new NcclEstimate(0, 9.5)), ctx);
    }

    private static void walk(JsonNode node, String path, Map<String, Set<String>> objects, boolean top) {
        if (node.isArray()) {
            node.forEach(v -> walk(v, path + "[]", objects, false));
            return;
        }
        if (!node.isObject()) {
            return;
        }
        Set<String> names = objects.computeIfAbsent(path, k -> new LinkedHashSet<>());
        String last = path.substring(path.lastIndexOf('.') + 1);
        if (DATA_KEYED.containsKey(last)) {
            if (node.size() > 0) {
                names.add(DATA_KEYED.get(last));
            }
            return;
        }
        node.fields().forEachRemaining(e -> {
            names.add(e.getKey());
            // a document inside another (a sweep's calibration) is listed under its own schema
            if (!(e.getValue().isObject() && e.getValue().has("schema") && !top)) {
                walk(e.getValue(), path.equals("(top)") ? e.getKey() : path + "." + e.getKey(), objects, false);
            }
        });
    }
}
