package org.ncclharness.harness;

import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.measure.Sweep;

class DatasetsAndConvertCommandTest {

    static final Path RAW = Path.of("../datasets/raw");

    @TempDir
    Path tmp;

    @Test
    void datasetsListsEveryBundledDatasetWithItsRowCount() throws IOException {
        CliRun run = CliRun.of("datasets");
        assertThat(run.exitCode()).isZero();
        List<Dataset> all = DatasetCatalog.bundled().all();
        try (var raws = Files.list(RAW)) {
            assertThat(all).hasSize((int) raws.filter(p -> p.toString().endsWith(".txt")).count());
        }
        for (Dataset d : all) {
            assertThat(run.out()).containsPattern("(?m)^" + d.id() + "\\s.*\\s" + d.rows().size() + "\\s");
        }
    }

    /** The command that writes calibration's bundled healthy ranges gives its bytes (HealthyRangesTest too). */
    @Test
    void datasetsHealthyRangesWritesTheBundledFile() throws IOException {
        CliRun run = CliRun.of("datasets", "--healthy-ranges", "-");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(Files.readString(Path.of(
                "../calibration/src/main/resources/hardware/healthy-ranges.json")));
        Path file = tmp.resolve("ranges.json");
        assertThat(CliRun.of("datasets", "--healthy-ranges", file.toString()).exitCode()).isZero();
        assertThat(CliRun.of("datasets", "--healthy-ranges", file.toString()).exitCode()).as("no --force")
                .isNotZero();
        assertThat(Files.readString(file)).isEqualTo(run.out());
    }

    @Test
    void datasetsFiltersCombineAndTheColumnsNeverShift() {
        CliRun run = CliRun.of("datasets", "--collective", "alltoall", "--min-gpus", "8");
        assertThat(run.exitCode()).isZero();
        List<String> rows = run.out().lines().filter(l -> !l.startsWith("#")).toList();
        List<String> expected = DatasetCatalog.bundled().all().stream()
                .filter(d -> d.metadata().collective().equals("alltoall") && d.metadata().gpus() != null
                        && d.metadata().gpus() >= 8)
                .map(Dataset::id).toList();
        assertThat(rows).extracting(l -> l.split("\\s+")[0]).containsExactlyElementsOf(expected);
        assertThat(expected).isNotEmpty();
        // every row's collective column starts where the header's does
        int at = run.out().lines().findFirst().orElseThrow().indexOf("collective");
        assertThat(rows).allSatisfy(l -> assertThat(l.substring(at)).startsWith("alltoall"));
        assertThat(CliRun.of("datasets", "--gpu", "mi3").out()).contains("mi300x_").doesNotContain("h100_");
        assertThat(CliRun.of("datasets", "--interconnect", "NVLink9").exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void showPrintsTheMetadataFirst() {
        String out = CliRun.of("datasets", "show", "v100_broadcast_12gpu_1node_nvlink2_dgx2_wohlbier").out();
        assertThat(out.lines().limit(8).toList()).anyMatch(l -> l.startsWith("# collective: broadcast"))
                .anyMatch(l -> l.startsWith("# GPU: Tesla V100-SXM3-32GB, GPUs: 12"))
                .anyMatch(l -> l.startsWith("# not stated by the source: ncclVersion"));
    }

    @Test
    void showPrintsTheNcclTestsTableThatReadsBackToTheSameRows() {
        String id = "h100_allreduce_16gpu_2node_aws_p5_efa_slurm";
        CliRun run = CliRun.of("datasets", "show", id);
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("# dataset " + id);
        Sweep back = Inputs.parse("stdout", run.out()).get(0);
        assertThat(back.rows()).isEqualTo(DatasetCatalog.bundled().get(id).rows());
    }

    @Test
    void busBwOnlyDatasetsShowNaWhereTheSourceHasNoValue() {
        CliRun run = CliRun.of("datasets", "show", "h200_allreduce_8gpu_azure_ndv5");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("# flag: busbw-only");
        assertThat(Inputs.parse("stdout", run.out()).get(0).rows())
                .isEqualTo(DatasetCatalog.bundled().get("h200_allreduce_8gpu_azure_ndv5").rows());
    }

    @Test
    void unknownDatasetIsBadInputAndListsTheKnownIds() {
        CliRun run = CliRun.of("datasets", "show", "h300_nope");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("h300_nope: no bundled dataset").contains("h100_allreduce_8gpu_azure_ndv5");
    }

    @Test
    void convertRoundTripsLogToCsvToJsonToCsv() throws IOException {
        Path log = RAW.resolve("h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk.txt");
        Path csv = tmp.resolve("a.csv");
        Path json = tmp.resolve("a.json");
        Path csv2 = tmp.resolve("b.csv");
        assertThat(CliRun.of("convert", log.toString(), "--csv", csv.toString()).exitCode()).isZero();
        assertThat(CliRun.of("convert", csv.toString(), "--json", json.toString()).exitCode()).isZero();
        assertThat(CliRun.of("convert", json.toString(), "--csv", csv2.toString()).exitCode()).isZero();
        assertThat(Files.readString(csv2)).isEqualTo(Files.readString(csv));
        assertThat(MeasurementCsv.read("a", Files.readString(csv))).isEqualTo(Inputs.read(log.toString()).get(0).rows());
    }

    @Test
    void convertReadsStdinAndWritesStdout() throws IOException {
        String log = Files.readString(RAW.resolve("a100_allreduce_8gpu_oci_bmgpu48.txt"));
        CliRun run = CliRun.withStdin(log, "convert", "-", "--csv", "-");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith(MeasurementCsv.HEADER + "\n");
        assertThat(run.out().lines().count()).isEqualTo(1 + Inputs.parse("-", log).get(0).rows().size());
    }

    @Test
    void badInputNamesFileAndLineAndLeavesNoOutput() throws IOException {
        Path bad = tmp.resolve("bad.txt");
        Files.writeString(bad, """
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                     1048576        262144     float     sum      -1    21.87   47.95   83.91      0    21.64   48.46   84.80      0
                     4194304       1048576     float     sum      -1    41.30   1O1.56  177.72      0    40.95  102.43  179.24      0
                """);
        Path out = tmp.resolve("out.csv");
        CliRun run = CliRun.of("convert", bad.toString(), "--csv", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo(bad + ":3: algbw '1O1.56' is not a number");
        assertThat(out).doesNotExist();
        try (var files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("bad.txt");
        }
    }

    @Test
    void anExistingOutputIsNotOverwrittenWithoutForce() throws IOException {
        Path log = RAW.resolve("a100_allreduce_8gpu_oci_bmgpu48.txt");
        Path out = tmp.resolve("keep.csv");
        Files.writeString(out, "precious");
        CliRun run = CliRun.of("convert", log.toString(), "--csv", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("already exists; pass --force");
        assertThat(Files.readString(out)).isEqualTo("precious");
        assertThat(CliRun.of("convert", log.toString(), "--csv", out.toString(), "--force").exitCode()).isZero();
        assertThat(Files.readString(out)).startsWith(MeasurementCsv.HEADER);
    }

    @Test
    void emptyAndBinaryFilesAreRefusedInOneLine() throws IOException {
        Path empty = Files.writeString(tmp.resolve("empty.txt"), "");
        Path bin = Files.write(tmp.resolve("bin.dat"), new byte[] {1, 2, 0, 3});
        CliRun e = CliRun.of("convert", empty.toString());
        CliRun b = CliRun.of("convert", bin.toString());
        assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(e.err().strip()).isEqualTo(empty + ": empty file; expected an nccl-tests log, a CSV or a JSON file");
        assertThat(b.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(b.err().strip()).isEqualTo(bin + ": binary file; expected an nccl-tests log, a CSV or a JSON file");
    }
}
