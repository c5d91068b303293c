package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.format.RankTimes;
import org.ncclharness.calibration.format.SweepJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Sweep;

/** text → model → text → model, for every bundled dataset and every format. */
class RoundTripTest {

    static Stream<Dataset> datasets() {
        return DatasetCatalog.fromDirectory(Path.of("../datasets")).all().stream();
    }

    @ParameterizedTest
    @MethodSource("datasets")
    void tableTextReadsBackToTheSameRows(Dataset d) {
        Sweep s = d.published();
        StringWriter sw = new StringWriter();
        NcclTestsTableWriter.write(new PrintWriter(sw), s, List.of("# " + s.provenance().label()));
        Sweep back = new NcclTestsLogReader("table", null).read(sw.toString().lines().toList()).get(0);
        // The 2.19.6 widths keep every value of a 2.19.6-era log exactly; older logs printed %6.2f past the
        // width (1095.65 GB/s), which 2.19.6 prints as 1095.7: equal to the printed precision.
        assertThat(back.rows()).hasSameSizeAs(d.rows());
        for (int i = 0; i < d.rows().size(); i++) {
            var a = d.rows().get(i);
            var b = back.rows().get(i);
            assertThat(b.sizeBytes()).isEqualTo(a.sizeBytes());
            assertThat(b.count()).isEqualTo(a.count());
            for (var pair : List.of(List.of(a.outOfPlace(), b.outOfPlace()), List.of(a.inPlace(), b.inPlace()))) {
                assertClose(pair.get(0).timeUs(), pair.get(1).timeUs());
                assertClose(pair.get(0).algBwGBps(), pair.get(1).algBwGBps());
                assertClose(pair.get(0).busBwGBps(), pair.get(1).busBwGBps());
                assertThat(pair.get(1).wrong()).isEqualTo(pair.get(0).wrong());
            }
        }
        StringWriter again = new StringWriter();
        NcclTestsTableWriter.write(new PrintWriter(again), back.withProvenance(s.provenance()),
                List.of("# " + s.provenance().label()));
        assertThat(again.toString()).isEqualTo(sw.toString());
    }

    private static void assertClose(Double expected, Double actual) {
        if (expected == null) {
            assertThat(actual).isNull();
        } else {
            assertThat(actual).isCloseTo(expected, org.assertj.core.data.Offset.offset(0.05 + Math.abs(expected) * 5e-4));
        }
    }

    @ParameterizedTest
    @MethodSource("datasets")
    void csvAndJsonReadBackToTheSameRows(Dataset d) {
        assertThat(MeasurementCsv.read("csv", MeasurementCsv.toString(d.collective(), d.rows()))).isEqualTo(d.rows());
        SweepJson.Read back = SweepJson.read("json", SweepJson.write(d.sweep(), List.of()));
        // the file keeps a note's words, not its kind (Note)
        assertThat(back.sweep().withNotes(List.of())).isEqualTo(d.sweep().withNotes(List.of()));
        assertThat(Note.texts(back.sweep().notes())).isEqualTo(Note.texts(d.sweep().notes()));
    }

    @Test
    void ncclTestsOwnJsonWithPerIterationObjectsReads() {
        String json = """
                {"version": 3, "start_time": "2026-11-30 10:00:00", "args": ["./all_reduce_perf", "-I", "1"],
                 "env": [], "nccl_version": 23007,
                 "config": {"nthreads": 1, "ngpus": 1, "minimum_bytes": 1048576, "maximum_bytes": 1048576,
                   "step_factor": 2, "warmup_iters": 1, "iterations": 3, "aggregated_iterations": 1,
                   "validation": "true", "graph": 0, "blocking_collectives": "false", "per_iter_timing": "true",
                   "per_iter_skip": 0, "parallel_init": "false",
                   "devices": [{"rank": 0, "group": 0, "pid": 11, "hostname": "n1", "device": 0,
                                "device_hex": "0000:18:00", "device_info": "NVIDIA H100 80GB HBM3"}]},
                 "results": [{"size": 1048576, "count": 262144, "type": "float", "redop": "sum", "root": "    -1",
                   "out_of_place": {"time": 21.870000, "alg_bw": 47.950000, "bus_bw": 83.910000, "nwrong": 0},
                   "out_of_place_per_iter": {"skipped_iterations": 0, "min_us": 21.5, "max_us": 22.4,
                     "avg_us": 21.87, "p50_us": 21.7, "p95_us": 22.4, "p99_us": 22.4, "stdev_us": 0.4,
                     "cv_pct": 1.8, "times_us": [21.5, 21.7, 22.4], "per_process_max_times_us": [[21.5, 21.7, 22.4]]},
                   "in_place": {"time": 21.640000, "alg_bw": 48.460000, "bus_bw": "nan", "nwrong": null},
                   "actual_iterations": 3, "experiment_name": ""}],
                 "out_of_bounds": {"count": 0, "okay": "true"},
                 "average_bus_bandwidth": {"bandwidth": 83.91, "okay": "unchecked"}, "errors": [],
                 "end_time": "2026-11-30 10:00:01"}
                """;
        SweepJson.Read r = SweepJson.read("nccl.json", json);
        assertThat(r.sweep().rows()).hasSize(1);
        assertThat(r.sweep().rows().get(0).outOfPlace().timeUs()).isEqualTo(21.87);
        assertThat(r.sweep().rows().get(0).inPlace().busBwGBps()).isNull();
        assertThat(r.sweep().rows().get(0).inPlace().wrong()).isNull();
        assertThat(r.sweep().devices()).singleElement().extracting(d -> d.host()).isEqualTo("n1");
        assertThat(r.perIteration()).singleElement().satisfies(p -> {
            assertThat(p.placement()).isEqualTo(Placement.OUT_OF_PLACE);
            assertThat(p.timesUs()).containsExactly(21.5, 21.7, 22.4);
            assertThat(p.perProcessMaxTimesUs()).hasSize(1);
        });
        SweepJson.Read again = SweepJson.read("ours.json", SweepJson.write(r.sweep(), r.perIteration()));
        assertThat(again.perIteration()).isEqualTo(r.perIteration());
        assertThat(again.sweep().rows()).isEqualTo(r.sweep().rows());
    }

    @Test
    void ncclsOwnEstimateSitsBesideTheRowsMeasurementAndReadsBack() throws Exception {
        Dataset d = datasets().findFirst().orElseThrow();
        List<RankTimes> times = List.of(new RankTimes(1, Placement.OUT_OF_PLACE, 3.0, 4.0));
        List<NcclEstimate> est = List.of(new NcclEstimate(0, 7.25), new NcclEstimate(1, 8.5));
        String json = SweepJson.write(d.sweep(), List.of(), times, est, SweepJson.Context.none());
        var rows = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("results");
        assertThat(rows.get(1).path("nccl_harness").path("nccl_estimate_time_us").asDouble()).isEqualTo(8.5);
        assertThat(rows.get(1).path("nccl_harness").has("out_of_place_rank_time")).isTrue();
        assertThat(rows.get(2).path("nccl_harness").has("nccl_estimate_time_us")).isFalse();
        SweepJson.Read back = SweepJson.read("json", json);
        assertThat(back.ncclEstimates()).isEqualTo(est);
        assertThat(back.rankTimes()).isEqualTo(times);
        assertThat(back.sweep()).isEqualTo(d.sweep());
        assertThat(SweepJson.read("json", SweepJson.write(d.sweep(), List.of())).ncclEstimates()).isEmpty();
        String broken = json.replaceFirst("\"nccl_estimate_time_us\" : 7.25", "\"nccl_estimate_time_us\" : \"soon\"");
        assertThat(broken).isNotEqualTo(json);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SweepJson.read("b.json", broken))
                .hasMessageContaining("results[0].nccl_harness.nccl_estimate_time_us is not a number");
    }

    @Test
    void perProcessMinAndMaxTimesSitInTheRowsOwnObjectAndReadBack() throws Exception {
        Dataset d = datasets().findFirst().orElseThrow();
        List<RankTimes> times = List.of(new RankTimes(0, Placement.OUT_OF_PLACE, 10.5, 12.25),
                new RankTimes(0, Placement.IN_PLACE, 10.0, 11.0), new RankTimes(2, Placement.IN_PLACE, 20.0, 31.5));
        String json = SweepJson.write(d.sweep(), List.of(), times, SweepJson.Context.none());
        var row0 = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("results").get(0);
        assertThat(row0.path("nccl_harness").path("out_of_place_rank_time").path("max_us").asDouble()).isEqualTo(12.25);
        assertThat(row0.path("out_of_place").has("min_us")).as("nccl-tests' own fields untouched").isFalse();
        SweepJson.Read back = SweepJson.read("json", json);
        assertThat(back.rankTimes()).isEqualTo(times);
        assertThat(back.sweep()).isEqualTo(d.sweep());
        assertThat(SweepJson.read("json", SweepJson.write(d.sweep(), List.of())).rankTimes()).isEmpty();
        String broken = json.replaceFirst("\"max_us\" : 12.25", "\"max_us\" : \"slow\"");
        assertThat(broken).isNotEqualTo(json);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SweepJson.read("b.json", broken))
                .hasMessageContaining("results[0].nccl_harness.out_of_place_rank_time.max_us is not a number");
    }
}
