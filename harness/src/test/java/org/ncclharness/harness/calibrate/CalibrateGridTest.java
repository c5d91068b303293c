package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.calibrate.CalibrationFile;
import org.ncclharness.calibration.fit.twotier.ParamRange;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** {@code calibrate --grid}: the reference grid search beside the exact two-tier fit, in the table and the JSON. */
class CalibrateGridTest {

    /** A bundled 2 x 8 H100 run over NDR InfiniBand, 32 points. */
    private static final String ID = "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk";
    private static final Path LOG = Path.of("../datasets/raw/" + ID + ".txt");
    private static final List<String> FORMS = List.of("hierarchical", "flat-ring");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static CliRun calibrate(Path json, String... extra) {
        String[] base = {"calibrate", LOG.toString(), "--intra", "NVLink4", "--inter", "IB-NDR", "--json", json.toString(),
            "--verbose"};
        String[] args = Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return CliRun.of(args);
    }

    @Test
    void theGridIsReportedBesideTheExactFitAndItsModelsRebuildExactly() throws IOException {
        Path json = dir.resolve("grid.json");
        CliRun run = calibrate(json, "--grid", "--grid-points", "6");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("grid search (reference method").contains("= 7776 combinations")
                .contains("grid-hierarchical RMSPE").contains("grid-flat-ring    RMSPE").contains("evals/s");

        CalibrationFile.Entry e = CalibrationFile.read(json).dataset(LOG.toString());
        assertThat(e.models()).extracting(CalibrationFile.CalibratedModel::name)
                .containsExactly("hierarchical", "flat-ring", "grid-hierarchical", "grid-flat-ring", "envelope",
                        "algorithms");
        assertThat(e.best()).isIn("hierarchical", "flat-ring", "envelope", "algorithms");
        JsonNode entry = JSON.readTree(json.toFile()).path("datasets").get(0);
        for (String form : FORMS) {
            CalibrationFile.CalibratedModel exact = e.model(form).orElseThrow();
            CalibrationFile.CalibratedModel grid = e.model("grid-" + form).orElseThrow();
            // The exact fitter searches the whole box the grid samples: it is never worse.
            assertThat(grid.inSampleRmspePct()).isGreaterThanOrEqualTo(exact.inSampleRmspePct());
            JsonNode g = model(entry, "grid-" + form);
            assertThat(g.path("grid").path("combinations").asLong()).isEqualTo(7776);
            assertThat(g.path("grid").path("evaluations_per_second").asDouble()).isPositive();
            assertThat(g.path("grid").path("exact_on_box").path("rmspe_pct").asDouble())
                    .isLessThanOrEqualTo(grid.inSampleRmspePct());
            // Faithful: the best is a grid point, every coordinate one of the axis's values.
            double[] theta = grid.theta();
            for (TwoTierParam q : TwoTierParam.values()) {
                JsonNode axis = g.path("grid").path("box").path(q.id());
                double[] values = new ParamRange(axis.path("min").asDouble(), axis.path("max").asDouble(),
                        axis.path("points").asInt()).values();
                assertThat(values).as(q.id()).contains(theta[q.ordinal()]);
            }
            // Rebuilt from the file, the model predicts exactly what the calibration wrote at every point.
            TwoTierParams p = new TwoTierParams(theta[0], theta[1], theta[2], theta[3], theta[4]);
            TwoTierForm f = TwoTierForm.byId(form).orElseThrow();
            for (JsonNode r : g.path("residuals")) {
                double bytes = r.path("bytes").asDouble();
                assertThat(grid.timeUs(bytes)).isEqualTo(r.path("predicted_us").asDouble())
                        .isEqualTo(TwoTierModel.timeUs(f, new TwoTierConfig(2, 8), 450, 2, p, bytes));
            }
            // the log's 32 sizes less its 2 glitches (8 B and 256 B: out-of-place and in-place 2.8x and 3.6x apart)
            assertThat(g.path("residuals")).hasSize(30);
        }
    }

    @Test
    void twoRunsGiveTheSameDigits() throws IOException {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        CliRun first = calibrate(a, "--grid", "--grid-points", "6");
        CliRun second = calibrate(b, "--grid", "--grid-points", "6");
        assertThat(List.of(first.exitCode(), second.exitCode())).containsOnly(ExitCode.OK);
        assertThat(gridLines(second)).hasSize(3).isEqualTo(gridLines(first));
        JsonNode ea = JSON.readTree(a.toFile()).path("datasets").get(0);
        JsonNode eb = JSON.readTree(b.toFile()).path("datasets").get(0);
        for (String form : FORMS) {
            JsonNode ga = model(ea, "grid-" + form);
            JsonNode gb = model(eb, "grid-" + form);
            assertThat(gb.path("parameters")).isEqualTo(ga.path("parameters"));
            assertThat(gb.path("rmspe")).isEqualTo(ga.path("rmspe"));
            assertThat(gb.path("grid").path("best_index")).isEqualTo(ga.path("grid").path("best_index"));
        }
    }

    @Test
    void rangesSetTheirAxisAndItsPoints() throws IOException {
        Path json = dir.resolve("box.json");
        CliRun run = calibrate(json, "--grid", "--grid-points", "4", "--grid-u-nv", "0.9:1:3", "--grid-t-sw", "0:20:5");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode g = model(JSON.readTree(json.toFile()).path("datasets").get(0), "grid-hierarchical").path("grid");
        assertThat(g.path("combinations").asLong()).isEqualTo(3 * 4 * 4 * 4 * 5);
        assertThat(g.path("box").path("u_NV").path("min").asDouble()).isEqualTo(0.9);
        assertThat(g.path("box").path("u_NV").path("points").asInt()).isEqualTo(3);
        assertThat(g.path("box").path("T_sw").path("max").asDouble()).isEqualTo(20);
        assertThat(g.path("box").path("beta_IB").path("points").asInt()).isEqualTo(4);
        assertThat(run.out()).contains("u_NV [0.9000, 1.000] x3").contains("= 960 combinations");
    }

    @Test
    void aJointFitGetsTheGridToo() throws IOException {
        Path json = dir.resolve("joint.json");
        CliRun run = CliRun.of("calibrate", "--joint", "mi325x_allreduce_ring_1node_rccl_hisohara",
                "mi325x_allreduce_ring_2node_rccl_hisohara", "--grid", "--grid-points", "4", "--json", json.toString(), "--verbose");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("(joint): 1x8,2x8").contains("grid-hierarchical RMSPE");
        CalibrationFile.Entry e = CalibrationFile.read(json).datasets().get(0);
        assertThat(e.kind()).isEqualTo("joint");
        for (String form : FORMS) {
            assertThat(e.model("grid-" + form).orElseThrow().inSampleRmspePct())
                    .isGreaterThanOrEqualTo(e.model(form).orElseThrow().inSampleRmspePct());
        }
    }

    @Test
    void badRangesAreUsageErrorsNamingTheFlagAndWriteNothing() {
        Path json = dir.resolve("never.json");
        String[][] cases = {
            {"--grid-u-nv", "-1:1:5", "--grid-u-nv: u_NV range -1:1:5: u_NV is a bandwidth"},
            {"--grid-beta-ib", "500:100:4", "--grid-beta-ib: beta_IB range 500:100:4: min > max"},
            {"--grid-ell-nv", "0:1:0", "--grid-ell-nv: ell_nv range 0:1:0: 0 points"},
            {"--grid-ell-ib", "-2:1:3", "--grid-ell-ib: ell_ib range -2:1:3: ell_ib is a latency and cannot be negative"},
            {"--grid-t-sw", "0:ten:3", "--grid-t-sw: T_sw range '0:ten:3': expected two numbers"},
            {"--grid-points", "1", "--grid-points: 1 points per axis; give at least 2"},
        };
        for (String[] c : cases) {
            CliRun run = calibrate(json, "--grid", c[0], c[1]);
            assertThat(run.exitCode()).as(c[0]).isEqualTo(ExitCode.USAGE);
            assertThat(run.err().strip()).as(c[0]).startsWith(c[2]).doesNotContain("\n");
        }
        assertThat(json).doesNotExist();
    }

    @Test
    void gridFlagsWithoutGridAreRefused() {
        Path json = dir.resolve("never.json");
        CliRun run = calibrate(json, "--grid-t-sw", "0:5:3");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("--grid-t-sw: sets the grid search, which runs only with --grid");
        assertThat(json).doesNotExist();
    }

    /** The text lines of the grid, without what the search cost (wall time and rate vary between runs). */
    private static List<String> gridLines(CliRun run) {
        return run.out().lines().filter(l -> l.contains("grid search (") || l.contains("grid-"))
                .map(l -> l.replaceAll("; [0-9.]+ s, .* evals/s on \\d+ threads$", "")).toList();
    }

    private static JsonNode model(JsonNode entry, String name) {
        for (JsonNode m : entry.path("models")) {
            if (m.path("name").asText().equals(name)) {
                return m;
            }
        }
        throw new AssertionError("no model " + name + " in " + entry.path("id"));
    }
}
