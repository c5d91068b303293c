package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.diagnose.RunDiagnosis;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Severity;

/**
 * text → JSON → JSON: what a document states besides its tables ({@link SourceFacts}) survives the project's JSON
 * as typed fields, for every real fixture log and every bundled dataset, and a JSON that keeps none (nccl-tests'
 * own, an earlier release's) reads as it did.
 */
class SourceFactsTest {

    private static final Path LOGS = Path.of("src/test/resources/logs");

    static Stream<String> logs() throws IOException {
        try (Stream<Path> real = Files.list(LOGS.resolve("real")); Stream<Path> info = Files.list(LOGS.resolve("ncclinfo"))) {
            return Stream.concat(real, info).map(Path::toString).filter(n -> n.endsWith(".txt")).sorted().toList()
                    .stream();
        }
    }

    static Stream<Dataset> datasets() {
        return DatasetCatalog.bundled().all().stream();
    }

    @ParameterizedTest
    @MethodSource("logs")
    void aLogsFactsSurviveItsJsonAndTheJsonsJson(String log) {
        RunDocument doc = Inputs.document(log, null);
        if (doc.sweepError() == null) {
            roundTrip(doc);
        }
    }

    @ParameterizedTest
    @MethodSource("datasets")
    void aDatasetsFactsSurviveItsJsonAndTheJsonsJson(Dataset d) {
        RunDocument json = roundTrip(d.document());
        assertThat(json.stated().datasetId()).isEqualTo(d.id());
        assertThat(json.stated().nics()).isEqualTo(d.metadata().nics());
    }

    /** The document's JSON reads back with the same facts, and so does the JSON of that JSON. */
    private static RunDocument roundTrip(RunDocument doc) {
        SourceFacts kept = RunDiagnosis.kept(doc);
        String first = json(doc.requireSweeps(), kept);
        RunDocument back = Inputs.parseDocument("first.json", first, null);
        assertThat(back.source()).as(doc.name()).isEqualTo(kept);
        assertThat(back.facts()).isEqualTo(doc.facts());
        assertThat(back.namedNetwork()).isEqualTo(doc.namedNetwork());
        assertThat(back.nicDevices()).isEqualTo(doc.nicDevices());
        assertThat(back.stated()).isEqualTo(doc.stated());
        assertThat(back.nics()).isEqualTo(doc.nics());
        // the JSON has no lines: its diagnosis is the one it keeps, the log's
        assertThat(RunDiagnosis.of(back)).isEqualTo(RunDiagnosis.of(doc));
        assertThat(back.sweeps()).hasSameSizeAs(doc.sweeps());
        RunDocument again = Inputs.parseDocument("second.json", json(back.requireSweeps(), RunDiagnosis.kept(back)),
                null);
        assertThat(again.source()).isEqualTo(kept);
        return back;
    }

    /**
     * A sweep JSON of version 1 (the values' Java names in {@code nccl_harness}; written by the release before the
     * rename, committed) reads as the log it was written from, as version 2 does.
     */
    @Test
    void aVersionOneSweepJsonReadsAsItsLogAndAsVersionTwo() throws IOException {
        RunDocument doc = Inputs.document(LOGS.resolve("ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")
                .toString(), null);
        String v1 = Files.readString(Path.of("src/test/resources/json/sweep-v1.json"));
        assertThat(v1).contains("\"schema\" : \"nccl-harness/sweep/1\"").contains("\"gpuModel\"");
        String v2 = SweepJson.writeAll(doc.requireSweeps(), SweepJson.Context.none().withSource(doc.source().toJson()
                .orElse(null)));
        assertThat(v2).contains("\"schema\" : \"nccl-harness/sweep/2\"").contains("\"gpu_model\"")
                .contains("\"nics_per_host\"").doesNotContain("\"gpuModel\"").doesNotContain("\"nicsPerHost\"");
        RunDocument old = Inputs.parseDocument("v1.json", v1, null);
        RunDocument now = Inputs.parseDocument("v2.json", v2, null);
        assertThat(now.source()).isEqualTo(doc.source());
        // the release that wrote version 1 did not keep NCCL's channel counts: all else reads back the same
        LogFacts log = doc.source().log();
        assertThat(log.channels()).isNotEmpty();
        assertThat(old.source()).isEqualTo(new SourceFacts(new LogFacts(log.ncclVersions(), log.ncclCuda(),
                log.driverVersion(), log.environment(), log.commandLine(), log.date(), log.nicsPerHost(), List.of()),
                doc.source().network(), doc.source().nicDevices(), doc.source().stated(), doc.source().diagnosis()));
        var a = old.requireSweeps().get(0);
        var b = now.requireSweeps().get(0);
        assertThat(a.hardware()).isEqualTo(b.hardware()).isEqualTo(doc.requireSweeps().get(0).hardware());
        assertThat(a.run()).isEqualTo(b.run());
        assertThat(a.provenance().kind()).isEqualTo(b.provenance().kind());
        assertThat(a.rows()).isEqualTo(b.rows());
    }

    /** As {@code convert --json} writes a document. */
    private static String json(List<org.ncclharness.calibration.measure.Sweep> sweeps, SourceFacts kept) {
        return SweepJson.writeAll(sweeps, SweepJson.Context.none().withSource(kept.toJson().orElse(null)));
    }

    @Test
    void theFactsAreTypedFieldsNotTheLogsText() throws Exception {
        RunDocument doc = Inputs.document(LOGS.resolve("ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")
                .toString(), null);
        var source = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json(doc.requireSweeps(),
                RunDiagnosis.kept(doc))).path("nccl_harness").path("source");
        assertThat(source.path("log").path("nics_per_host").asInt()).isEqualTo(8);
        assertThat(source.path("log").path("nccl_versions").get(0).asText()).isEqualTo("2.26.2");
        assertThat(source.path("nic_devices")).hasSize(8);
        var channels = source.path("log").path("channels").get(0);
        assertThat(channels.path("ranks").asInt()).isEqualTo(16);
        assertThat(channels.path("coll").asInt()).isEqualTo(16);
        assertThat(channels.path("nvls").asInt()).isEqualTo(16);
        assertThat(channels.path("p2p_per_peer").asInt()).isEqualTo(2);
        assertThat(source.path("diagnosis").path("transport").asText()).startsWith("NCCL used (its INFO lines)");
        assertThat(source.path("diagnosis").path("findings").get(0).path("severity").asText())
                .isEqualTo(Severity.INFO.name());
        // no text of the log beyond the evidence lines its findings quote
        assertThat(source.has("text")).isFalse();
        assertThat(source.has("stated")).as("a file states no dataset's metadata").isFalse();
    }

    @Test
    void aFailedRunsDiagnosisIsKept() {
        RunDocument back = roundTrip(Inputs.document(LOGS.resolve("real/failed_h100_1024rank_listcut_reducedmaxbytes_issue322.txt")
                .toString(), null));
        assertThat(back.diagnosis().orElseThrow().findings()).anySatisfy(i -> {
            assertThat(i.code()).isEqualTo("TEST_FAILED");
            assertThat(i.severity()).isEqualTo(Severity.FAIL);
        });
    }

    @Test
    void aJsonThatKeepsNoneStatesNothingMore() {
        RunDocument doc = Inputs.document(LOGS.resolve("real/prefix_mpitag_midline_h100_p5_efa_2x8_keitaw.txt")
                .toString(), null);
        // as an earlier release wrote it, and as nccl-tests writes its own (no nccl_harness object at all)
        RunDocument earlier = Inputs.parseDocument("earlier.json", SweepJson.writeAll(doc.requireSweeps()), null);
        assertThat(earlier.source()).isEqualTo(SourceFacts.NONE);
        assertThat(earlier.diagnosis()).isEmpty();
        assertThat(RunDiagnosis.of(earlier)).isEmpty();
        assertThat(earlier.namedNetwork()).isEmpty();
        String ncclTests = """
                {"version": 3, "args": ["./all_reduce_perf"], "env": [], "config": {"devices": []},
                 "results": [{"size": 8, "count": 2, "type": "float", "redop": "sum", "root": "    -1",
                   "out_of_place": {"time": 10.0, "alg_bw": 0.0, "bus_bw": 0.0, "nwrong": 0},
                   "in_place": {"time": 10.0, "alg_bw": 0.0, "bus_bw": 0.0, "nwrong": 0}}]}
                """;
        assertThat(Inputs.parseDocument("nccl.json", ncclTests, null).source()).isEqualTo(SourceFacts.NONE);
        // and a JSON of a CSV is written as before: nothing to keep, no object
        assertThat(SourceFacts.NONE.toJson()).isEmpty();
    }

    @Test
    void aDamagedSourceObjectIsOneLineNamingIt() {
        RunDocument doc = Inputs.document(LOGS.resolve("ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt")
                .toString(), null);
        String json = json(doc.requireSweeps(), RunDiagnosis.kept(doc)).replace("\"nics_per_host\" : ", "\"nics_per_host\" : -");
        assertThatThrownBy(() -> Inputs.parseDocument("d.json", json, null)).isInstanceOf(InputException.class)
                .hasMessageContaining("d.json: nccl_harness.source is not valid");
    }
}
