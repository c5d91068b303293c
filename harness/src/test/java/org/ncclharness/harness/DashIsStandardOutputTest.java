package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code -} does beyond the walk of {@link OutputOptionsWalkTest}: the report moves to stderr, standard output
 * comes after every file, and the refusals that depend on more than one option.
 */
class DashIsStandardOutputTest {

    private static final String DATASET = "h100_allreduce_8gpu_azure_ndv5";

    @TempDir
    Path dir;

    @Test
    void aSweepJsonOnStandardOutputLeavesTheTableToStderr() throws IOException {
        CliRun r = CliRun.of("sweep", "-b", "1K", "-e", "4K", "--no-calibrate", "-J", "-");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.path("nccl_harness").path("command_line").asText()).endsWith("-J -");
        assertThat(r.err()).contains("# Writing JSON output to standard output").contains("#       size");
    }

    @Test
    void aMatrixWritesAFilePerCombinationAndSoRefusesStandardOutput() {
        CliRun r = CliRun.of("sweep", "--algo", "Ring,Tree", "-J", "-");
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err().strip()).isEqualTo("--algo/--proto write one file per combination, and standard output"
                + " holds one: give -J a file name (out.json gives out.ring-ll.json, ...)");
        assertThat(r.out()).isEmpty();
        // the CSV's example names a CSV
        CliRun csv = CliRun.of("sweep", "--algo", "Ring,Tree", "--csv", "-");
        assertThat(csv.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(csv.err().strip()).isEqualTo("--algo/--proto write one file per combination, and standard output"
                + " holds one: give --csv a file name (out.csv gives out.ring-ll.csv, ...)");
    }

    /** A replay's CSV on standard output says it is a replay on every row, and reads back as one (README). */
    @Test
    void aReplaysCsvOnStandardOutputSaysReplayOnEveryRow() {
        org.junit.jupiter.api.Assumptions.assumeFalse(org.ncclharness.gpu.Gpus.probe().ok(),
                "a GPU is present: the sweep measures");
        CliRun r = CliRun.of("sweep", "-b", "1K", "-e", "4K", "--no-calibrate", "--csv", "-");
        assertThat(r.exitCode()).as(r.err()).isZero();
        java.util.List<String> rows = r.out().lines().toList();
        assertThat(rows.get(0)).endsWith(",provenance,provenance_label");
        assertThat(rows.subList(1, rows.size())).hasSize(3)
                .allSatisfy(l -> assertThat(l).contains(",replay,replay of stored measurements: "));
        assertThat(org.ncclharness.calibration.read.Inputs.parse("stdout", r.out()).get(0).provenance().kind())
                .isEqualTo(org.ncclharness.calibration.measure.SourceKind.REPLAY);
    }

    @Test
    void twoOutputsOfOneCommandOnStandardOutputAreRefusedBeforeAnyWork() {
        CliRun r = CliRun.of("sweep", "-b", "1K", "-e", "4K", "--output_file", "-", "--csv", "-");
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err().strip()).isEqualTo("--json - and --csv - would both write to standard output, which"
                + " holds one output: send all but one of them to a file");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aCalibrationOnStandardOutputComesAfterItsPage() throws IOException {
        Path site = dir.resolve("site");
        CliRun r = CliRun.of("calibrate", DATASET, "--json", "-", "--report", site.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(new ObjectMapper().readTree(r.out()).path("datasets").get(0).path("id").asText()).isEqualTo(DATASET);
        assertThat(site.resolve("index.html")).isRegularFile();
        assertThat(r.err()).contains("# page written to " + site.resolve("index.html")).contains(DATASET);
        // a page that cannot be written: nothing on standard output either
        CliRun again = CliRun.of("calibrate", DATASET, "--json", "-", "--report", site.toString());
        assertThat(again.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(again.out()).isEmpty();
    }

    @Test
    void aDiagnosisOnStandardOutputLeavesItsTextToStderr() throws IOException {
        CliRun r = CliRun.of("diagnose", DATASET, "--json", "-");
        assertThat(r.exitCode()).isZero();
        assertThat(new ObjectMapper().readTree(r.out()).path("schema").asText()).isEqualTo("nccl-harness/diagnosis/1");
        assertThat(r.err()).startsWith("# diagnose: " + DATASET);
    }

    @Test
    void aFileOrFolderNamedDashIsNeverMade() {
        for (String[] args : new String[][] {{"convert", DATASET, "--csv", dir.resolve("-").toString()},
            {"check", DATASET, "--report", dir.resolve("-").toString()},
            {"plot", DATASET, "--out", dir + "/sub/-"}}) {
            CliRun r = CliRun.of(args);
            assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(r.err().strip()).isEqualTo(args[2] + " " + args[3] + ": names a file or folder '-', which"
                    + " every command takes for standard output: choose another name");
        }
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aFolderOrAPictureGivenDashSaysWhyAndWhatToGive() {
        CliRun folder = CliRun.of("bringup", "--replay", "-o", "-");
        assertThat(folder.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(folder.err()).isEqualTo("--out -: writes a folder of files, and standard output is one stream:"
                + " name the folder (--out out)" + System.lineSeparator());
        CliRun picture = CliRun.of("plot", DATASET, "--out", "-");
        assertThat(picture.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(picture.err().strip()).isEqualTo("--out -: writes a picture (PNG or SVG bytes), which standard"
                + " output is no place for: name the file (--out figure.png)");
        assertThat(Files.exists(Path.of("-"))).isFalse();
    }
}
