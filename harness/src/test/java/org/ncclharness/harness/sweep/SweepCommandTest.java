package org.ncclharness.harness.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.read.NcclTestsLogReader;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** {@code sweep} on a machine without a GPU: the replay, its outputs, and nccl-tests-style flag errors. */
public class SweepCommandTest {

    public static final String OCI = "a100_allreduce_16gpu_2node_oci_roce";

    @BeforeAll
    static void onlyWithoutAGpu() {
        // On a GPU machine sweep measures; these tests are about the replay.
        assumeFalse(Gpus.probe().ok(), "a GPU is present: the replay path is not taken");
    }

    public static List<String> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && l.trim().matches("\\d+\\s.*")).toList();
    }

    @Test
    void theMissionCommandPrintsTheReasonTheReplayTableAndTheCalibration() {
        CliRun r = CliRun.of("sweep", "-b", "1K", "-e", "8G");
        assertThat(r.exitCode()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).startsWith("# no GPU: ");
        assertThat(lines).anyMatch(l -> l.startsWith("# replay of stored measurements: "));
        assertThat(lines).anyMatch(l -> l.startsWith("# replaying ") && l.contains("covers 24 of the 24 requested"));
        assertThat(lines).anyMatch(l -> l.startsWith("#       size         count      type   redop    root     time"));
        assertThat(rows(r.out())).hasSize(24).first().asString().startsWith("        1024");
        // grep "# Avg bus bandwidth" | awk '{print $NF}'
        List<String> avg = lines.stream().filter(l -> l.contains("# Avg bus bandwidth")).toList();
        assertThat(avg).hasSize(1);
        String[] f = avg.get(0).trim().split("\\s+");
        assertThat(Double.parseDouble(f[f.length - 1])).isPositive();
        assertThat(r.out()).contains("# model picked by leave-one-out RMSPE");
        // Our own reader reads our output back: the same rows.
        Sweep back = Inputs.parse("stdout", r.out()).get(0);
        assertThat(back.rows()).hasSize(24);
        assertThat(back.rows().stream().map(NcclTestsTableWriter::row).toList()).isEqualTo(rows(r.out()));
    }

    /**
     * A 2-host sweep gets the calibration calibrate gives the same run (the multi-domain families and the pick),
     * not "awaiting the two-tier fit": sweep and calibrate share one pipeline.
     */
    @Test
    void aTwoHostSweepIsCalibratedAsCalibrateCalibratesIt() {
        String id = "h100_allreduce_16gpu_2node_aws_p5_efa_eks";
        CliRun sweep = CliRun.of("sweep", "-b", "4", "-e", "2G", "--dataset", id); // every timed size it has
        CliRun calibrate = CliRun.of("calibrate", id);
        assertThat(sweep.exitCode()).as(sweep.err()).isZero();
        assertThat(sweep.out()).doesNotContain("not calibrated").doesNotContain("awaiting");
        String row = calibrate.out().lines().filter(l -> l.startsWith(id)).findFirst().orElseThrow();
        assertThat(row.split("\\s+")[2]).isEqualTo("algorithms");
        assertThat(sweep.out().lines().filter(l -> l.startsWith(id)).findFirst().orElseThrow()).isEqualTo(row);
    }

    @Test
    void withNoReplayAMachineWithoutAGpuExitsThreeWithTheReasonAndPrintsNoTable() {
        CliRun r = CliRun.of("sweep", "--no-replay", "-b", "1K", "-e", "1M");
        assertThat(r.exitCode()).isEqualTo(ExitCode.ENVIRONMENT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).singleElement().asString().startsWith("no GPU: ")
                .endsWith("(--no-replay: nothing measured, nothing replayed)");
        CliRun both = CliRun.of("sweep", "--no-replay", "--dataset", OCI);
        assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(both.err()).contains("--no-replay and --dataset " + OCI + " contradict");
    }

    @Test
    void theNoReplayVariableTakesTheUsualSpellingsAndRefusesTypos() {
        for (String on : new String[] {"1", "true", "TRUE", "yes", "on"}) {
            assertThat(SweepCommand.noReplayFromEnv(on)).as(on).isTrue();
        }
        for (String off : new String[] {"0", "false", "no", "off", "", null}) {
            assertThat(SweepCommand.noReplayFromEnv(off)).as(String.valueOf(off)).isFalse();
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SweepCommand.noReplayFromEnv("2"))
                .hasMessageContaining("invalid HARNESS_NO_REPLAY='2'");
    }

    @Test
    void aReplayPrintsTheRowsOfTheRawLogItCameFrom() throws IOException {
        CliRun r = CliRun.of("sweep", "--dataset", OCI, "-b", "64", "-e", "8G", "--no-calibrate");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("# replay of stored measurements: " + OCI + " (");
        Sweep raw;
        try (InputStream in = SweepCommandTest.class.getResourceAsStream("/datasets/raw/" + OCI + ".txt")) {
            raw = new NcclTestsLogReader(OCI, null).read(new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines().toList()).get(0);
        }
        assertThat(rows(r.out())).isEqualTo(raw.rows().stream().map(NcclTestsTableWriter::row).toList());
        assertThat(r.out()).doesNotContain("# single-tier");
    }

    @Test
    void theReplayIsRestrictedToTheRequestedSizes() {
        CliRun r = CliRun.of("sweep", "--dataset", OCI, "-b", "1M", "-e", "4M", "--no-calibrate");
        assertThat(rows(r.out())).extracting(l -> l.trim().split("\\s+")[0]).containsExactly("1048576", "2097152",
                "4194304");
    }

    @Test
    void jsonAndCsvReadBackIdenticallyAndSayReplay(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("run.json");
        Path csv = dir.resolve("run.csv");
        CliRun r = CliRun.of("sweep", "--dataset", OCI, "-b", "64", "-e", "8G", "-J", json.toString(),
                "--csv", csv.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("# Writing JSON output to " + json);
        String text = Files.readString(json);
        SweepJson.Read back = SweepJson.read(json.toString(), text);
        assertThat(back.sweep().provenance().kind()).isEqualTo(SourceKind.REPLAY);
        assertThat(back.sweep().rows()).isEqualTo(MeasurementCsv.read(csv.toString(), Files.readString(csv)));
        assertThat(back.sweep().rows()).hasSize(28);
        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
        assertThat(root.path("args").get(0).asText()).isEqualTo("harness.jar");
        assertThat(root.path("average_bus_bandwidth").path("okay").asText()).isEqualTo("unchecked");
        assertThat(root.path("nccl_harness").path("replay").path("dataset").asText()).isEqualTo(OCI);
        assertThat(root.path("nccl_harness").path("calibration").path("schema").asText())
                .isEqualTo("nccl-harness/calibration/2");
        assertThat(root.path("nccl_harness").path("command_line").asText()).contains("-J " + json);
        // check of what a replay wrote never passes a node that measured nothing
        CliRun check = CliRun.of("check", json.toString());
        assertThat(check.out()).contains("WARN: these numbers are a replay (").doesNotContain("Verdict: PASS");
        // the JSON keeps what the replayed dataset states: check of it knows the NICs check of the dataset knows
        assertThat(root.path("nccl_harness").path("source").path("stated").path("dataset_id").asText()).isEqualTo(OCI);
        assertThat(check.out()).contains("of the line rate of 16 RoCE-100G NICs per host");
    }

    /** The CSV says replay on every row, whatever the file's name, and check of it is a WARN saying so. */
    @Test
    void aReplayCsvSaysReplayOnEveryRow(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("run.csv");
        CliRun r = CliRun.of("sweep", "--dataset", OCI, "-b", "1M", "-e", "64M", "--csv", csv.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readAllLines(csv).subList(1, 7)).allSatisfy(l -> assertThat(l).endsWith(
                ",replay,replay of stored measurements: " + OCI + " (https://github.com/oracle-japan/ocitutorials/blob/"
                        + "master/tutorials/_intermediates/spinup-gpu-cluster.md)"));
        Sweep back = Inputs.read(csv.toString()).get(0);
        assertThat(back.provenance().kind()).isEqualTo(SourceKind.REPLAY);
        CliRun check = CliRun.of("check", csv.toString(), "--gpus", "16", "--nodes", "2", "--interconnect",
                "RoCE-100G");
        assertThat(check.out()).contains("WARN: these numbers are a replay (replay of stored measurements: " + OCI);
    }

    /**
     * A replay's average is another machine's: --min-busbw neither passes nor fails it (exit 0 either way), the
     * trailer's status says NOT-JUDGED where nccl-tests prints OK or FAILED, and a '#' line says why. A measured
     * table is judged (LiveSweepTest); the README's sweep example, without a GPU, once printed "5.44136 OK".
     */
    @Test
    void aReplayIsNotJudgedAgainstMinBusBw() {
        for (String gate : new String[] {"1", "100"}) {
            CliRun r = CliRun.of("sweep", "-b", "1K", "-e", "1M", "--min-busbw", gate, "--no-calibrate");
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).containsPattern("# Avg bus bandwidth    : 5.44136 NOT-JUDGED\n")
                    .doesNotContainPattern("Avg bus bandwidth .*(OK|FAILED)")
                    .contains("# --min-busbw / NCCL_TESTS_MIN_BW (average 5.44136 GB/s, gate 0.9 x " + gate
                            + " GB/s) not judged: this table is a replay, another machine's stored measurements, not"
                            + " this one's (exit 0); measure on the GPU node to judge them (sweep --no-replay)");
        }
        CliRun oci = CliRun.of("sweep", "--dataset", OCI, "-b", "64", "-e", "8G", "--min-busbw", "200",
                "--no-calibrate");
        assertThat(oci.exitCode()).isZero();
        // no gate, no #wrong: nothing to judge, and nccl-tests' trailer as it prints it
        CliRun none = CliRun.of("sweep", "-b", "1K", "-e", "1M", "--no-calibrate");
        assertThat(none.out()).contains("# Avg bus bandwidth    : 5.44136 \n").doesNotContain("not judged");
    }

    /** A GB/s option takes a finite rate above 0: NaN or a negative gate would pass every run. */
    @Test
    void minBusBwTakesAFiniteRateAboveZero() {
        for (String bad : new String[] {"NaN", "-5", "0", "Infinity", "1e999"}) {
            CliRun r = CliRun.of("sweep", "--min-busbw", bad);
            assertThat(r.exitCode()).as(bad).isEqualTo(2);
            assertThat(r.err().lines().findFirst().orElse("")).as(bad)
                    .startsWith("Invalid value for option '--min-busbw': '" + bad + "' is not a bandwidth");
            assertThat(r.out()).as(bad).isEmpty();
        }
    }

    @Test
    void badFlagsGiveNcclTestsStyleErrorsAndExitTwo() {
        assertThat(CliRun.of("sweep", "-b", "8G", "-e", "1K")).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("invalid sizes for 'minbytes' and 'maxbytes': 8589934592 > 1024");
        });
        assertThat(CliRun.of("sweep", "-f", "0")).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("invalid step factor '0'");
        });
        assertThat(CliRun.of("sweep", "--algo", "Ring,Butterfly")).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("invalid --algo 'Butterfly'").contains("Ring");
        });
        assertThat(CliRun.of("sweep", "-b", "1X")).satisfies(r -> {
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("invalid size specified for 'minbytes'");
        });
        assertThat(CliRun.of("sweep", "-d", "float17").err()).contains("invalid type 'float17'");
        assertThat(CliRun.of("sweep", "-N", "0").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("sweep", "-K", "3").err()).contains("-K 3 needs -I 1");
    }

    @Test
    void helpSaysTheDefaultStepDiffers() {
        CliRun r = CliRun.of("sweep", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out().replaceAll("\\s+", " ")).contains("when neither -f nor -i is given the step is -f 2");
    }

    @Test
    void onlyRankZeroPrintsAndTheJobsGpuCountChoosesTheDataset() {
        CliRun other = CliRun.of("sweep", "--rank", "3", "--world-size", "16", "-b", "1K", "-e", "8G");
        assertThat(other.exitCode()).isZero();
        assertThat(other.out()).isEmpty();
        CliRun zero = CliRun.of("sweep", "--rank", "0", "--world-size", "16", "-b", "1K", "-e", "8G", "--no-calibrate");
        assertThat(zero.out()).contains("the same GPU count as the job (16)");
    }

    @Test
    void aMatrixRequestIsNamedInTheReplay(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("run.json");
        CliRun r = CliRun.of("sweep", "--dataset", OCI, "--algo", "Ring,Tree", "--proto", "LL", "--no-calibrate",
                "-J", json.toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("# note: --algo/--proto need a GPU");
        // the JSON keeps what was asked beside what the stored run used, and says it was not honoured
        var replay = new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readString(json))
                .path("nccl_harness").path("replay");
        assertThat(replay.path("requested_combinations").toString()).contains("Ring/LL").contains("Tree/LL");
        assertThat(replay.path("not_honoured").get(0).asText()).contains("--algo/--proto need a GPU");
    }
}
