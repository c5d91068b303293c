package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.CalibrationPipeline;
import org.ncclharness.calibration.calibrate.CalibrationSummary;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.fit.Identifiability;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.runs.CalibrationInputs;

/**
 * A limit the sizes do not reach is {@code -} with U in every family and every output: on real runs (the CoreWeave
 * 1440-GPU GB200 log from 512 MiB up, a latency-only multi-domain excerpt) and on every bundled run.
 */
class UnreachedLimitsTest {

    private static final String GB200_1440 = "../calibration/src/test/resources/logs/real/"
            + "coll_gb200_nvl72_allreduce_1440rank_20racks_lastrankonly.txt";
    private static final String[] GB200_FLAGS = {"--gpus", "1440", "--nodes", "20", "--interconnect", "IB-XDR"};

    private static List<CalibrationSummary.Row> rows(List<CalibrationInput> in) {
        return CalibrationPipeline.calibrate(HardwareFacts.bundled(), CalibrationPipeline.glitches(in, false),
                CalibrationOptions.defaults(), Optional.empty(), FitProgress.NONE).entries().stream()
                .map(CalibrationSummary::row).flatMap(Optional::stream).toList();
    }

    private static String[] args(String... first) {
        String[] all = java.util.Arrays.copyOf(first, first.length + GB200_FLAGS.length);
        System.arraycopy(GB200_FLAGS, 0, all, first.length, GB200_FLAGS.length);
        return all;
    }

    @Test
    void theGb200LogFrom512MiBShowsNoAlphaInTheSummaryTheJsonOrVerbose(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("gb200.json");
        CliRun r = CliRun.of(args("calibrate", GB200_1440, "--verbose", "--json", json.toString()));
        assertThat(r.exitCode()).as(r.err()).isZero();
        // the two-tier form fits a large intercept (the ring's 2(N-1) steps) that no measured size reaches
        assertThat(r.out()).contains("latency sum - (not reached by the sizes)").doesNotContain("latency sum 4");
        String row = r.out().lines().filter(l -> l.trim().startsWith("1440 hierarchical")).findFirst().orElseThrow();
        assertThat(row.trim().split(" +")[3]).as(row).isEqualTo("-");
        JsonNode summary = new ObjectMapper().readTree(json.toFile()).path("datasets").get(0).path("summary");
        assertThat(summary.path("alpha_us").isNull()).as(summary.toString()).isTrue();
        assertThat(summary.path("bus_bw_gbps").isNumber()).as("the busbw is reached: 16 GiB is 12x the first time")
                .isTrue();
        assertThat(summary.path("flags").asText()).contains("U").contains("X");
    }

    @Test
    void theGb200LogsAstraSimExportCarriesNoLatencyTheSizesDoNotReach(@TempDir Path dir) {
        Path yaml = dir.resolve("astra.yaml");
        CliRun r = CliRun.of(args("calibrate", GB200_1440, "--astra-sim", yaml.toString()));
        // no dimension has a latency the sizes reach: nothing is written rather than a number the model did not
        // determine, and the reason names the rule
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("latency: the sizes do not reach it (the summary's -)");
        assertThat(yaml).doesNotExist();
    }

    @Test
    void aLatencyOnlyMultiDomainRunShowsNoBusBw() {
        // real small-message rows of 16 nodes (NCCL issue 1469): the two-tier fit's bandwidth is not the sweep's
        CalibrationInput small = CalibrationInputs.of(DatasetCatalog.bundled()
                .get("h100_allreduce_16node_smallmsg_nccl1469_partial"));
        CalibrationSummary.Row r = rows(List.of(small)).get(0);
        assertThat(r.busBwGBps()).isNull();
        assertThat(r.alphaUs()).as("its sizes sit on the latency plateau").isNotNull();
        assertThat(r.flags()).contains("U").doesNotContain("X");
    }

    /**
     * Every bundled run, every family: α is shown only where the smallest size sits on the latency plateau and no
     * metadata declares the run bandwidth-only; the busbw only where the largest time is at least twice the
     * smallest and no metadata declares it latency-only.
     */
    @Test
    void noBundledRowShowsALimitItsSizesDoNotReach() {
        List<CalibrationInput> in = CalibrationInputs.bundled();
        List<CalibrationSummary.Row> rows = rows(in);
        int hidden = 0;
        for (CalibrationSummary.Row r : rows) {
            Optional<CalibrationInput> i = in.stream().filter(x -> x.id().equals(r.id())).findFirst();
            if (i.isEmpty()) {
                continue;
            }
            Identifiability reach = reach(i.get());
            if (!reach.alphaReached()) {
                assertThat(r.alphaUs()).as(r.id() + " " + reach).isNull();
                assertThat(r.flags()).as(r.id()).contains("U");
                hidden++;
            }
            if (!reach.beta()) {
                assertThat(r.busBwGBps()).as(r.id() + " " + reach).isNull();
                assertThat(r.flags()).as(r.id()).contains("U");
            }
        }
        assertThat(hidden).as("bundled runs whose sizes start off the latency plateau").isGreaterThanOrEqualTo(20);
    }

    /** The run's own reach, read from its points (times by size, as every fit reads them), with its metadata's. */
    private static Identifiability reach(CalibrationInput in) {
        FitPoints p = FitPoints.from(in.sweep(), in.sweep().hardware().ranks());
        return Identifiability.of(p.timeUs(), p.busBwGBps()).declared(in.flags());
    }

    @Test
    void theRuleIsWrittenInTheReadmeWhereItDescribesTheFlags() throws IOException {
        String readme = Files.readString(Path.of("../README.md")).replaceAll("\\s+", " ");
        assertThat(readme).contains("the latency plateau").contains("`bandwidth-only` or `latency-only`")
                .contains("coll_gb200_nvl72_allreduce_1440rank_20racks_lastrankonly.txt");
    }
}
