package org.ncclharness.harness.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.calibrate.CalibrationFile;
import org.ncclharness.calibration.predict.PredictionSources;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

class PredictCommandTest {

    private static final String H200 = "h200_allreduce_8gpu_azure_ndv5";

    @TempDir
    Path dir;

    /** Where {@link #catalogueCalibration} writes: shared by the tests that read the whole catalogue's calibration. */
    @TempDir
    static Path shared;
    private static Path catalogue;

    /**
     * {@code calibrate --json} of every bundled run, made once for the class: the tests only read it, and each
     * calibration of the whole catalogue is the slowest thing they would do.
     */
    private static synchronized Path catalogueCalibration() {
        if (catalogue == null) {
            Path json = shared.resolve("cal.json");
            CliRun made = CliRun.of("calibrate", "--json", json.toString());
            assertThat(made.exitCode()).as(made.err()).isZero();
            catalogue = json;
        }
        return catalogue;
    }

    @Test
    void theSpecWorkedExample() {
        CliRun r = CliRun.of("predict", "--bytes", "14GB", "--gpus", "8", "--bandwidth", "25GB/s", "--step-latency",
                "10us");
        assertThat(r.exitCode()).isZero();
        // 2(N-1)(D/(N B) + L) = 14 (14e9 / 200e9 s + 10 us) = 0.98 s + 0.14 ms.
        assertThat(r.out()).startsWith("# predicted by ring formula from ")
                .contains("AllReduce of 14000000000 bytes (13 GiB) on 8 GPUs: 0.980140 s (980140.0 us)")
                .contains("latency term   : 140.0 us")
                .contains("bandwidth term : 0.980000 s")
                .contains("Tree would take")
                .contains("algorithm      : Ring, protocol");
        // 64 KiB on 8 GPUs: the ideal Tree beside this ring is faster, and the algorithm line does not contradict it
        CliRun small = CliRun.of("predict", "--bytes", "64K", "--gpus", "8", "--bandwidth", "25GB/s",
                "--step-latency", "10us");
        assertThat(small.out()).contains("algorithm      : Ring (the model's form; Tree below is faster at this size,"
                + " so NCCL may run Tree here)").contains("Tree is faster below");
    }

    @Test
    void theTableIsNcclTestsLayoutAndConvertReadsItBackAsAPrediction() throws IOException {
        CliRun r = CliRun.of("predict", "-b", "1K", "-e", "1G", "-f", "4", "--gpus", "8", "--bandwidth", "25GB/s",
                "--step-latency", "10us");
        assertThat(r.exitCode()).isZero();
        Path table = dir.resolve("pred.txt");
        Files.writeString(table, r.out());
        List<Sweep> back = Inputs.read(table.toString());
        assertThat(back).hasSize(1);
        Sweep s = back.get(0);
        assertThat(s.provenance().kind()).isEqualTo(SourceKind.PREDICTED);
        assertThat(s.provenance().label()).startsWith("predicted by ring formula");
        assertThat(s.rows()).extracting(Measurement::sizeBytes)
                .containsExactly(1024L, 4096L, 16384L, 65536L, 262144L, 1048576L, 4194304L, 16777216L, 67108864L,
                        268435456L, 1073741824L);
        // 1 GiB: 14 * (2^30 / 200e3 + 10) us, as printed.
        assertThat(s.rows().get(10).outOfPlace().timeUs()).isCloseTo(14 * ((1 << 30) / 200e3 + 10), within(0.05));

        CliRun converted = CliRun.of("convert", table.toString());
        assertThat(converted.exitCode()).isZero();
        assertThat(converted.out()).startsWith("# predicted by ring formula").doesNotContain("stored measurements");
        // a prediction checked no data: its trailer says so, and check does not read that as a failed check
        assertThat(r.out()).contains("# Out of bounds values : N/A (a prediction: no data was checked)")
                .doesNotContain("0 OK");
        assertThat(s.trailer().outOfBounds()).isEqualTo("N/A (a prediction: no data was checked)");
        CliRun checked = CliRun.of("check", table.toString(), "--interconnect", "NVLink4");
        assertThat(checked.out()).doesNotContain("the data check failed");
        // a model fitted to a model's own numbers would score 0 %: calibrate refuses it, as check does
        CliRun refit = CliRun.of("calibrate", table.toString(), "--interconnect", "NVLink4");
        assertThat(refit.exitCode()).isEqualTo(2);
        assertThat(refit.err()).contains("this is a prediction, not a measurement");
        // the CSV says predicted on every row, whatever the file's name, and reads back as a prediction
        Path plain = dir.resolve("rows.csv");
        assertThat(CliRun.of("convert", table.toString(), "--csv", plain.toString()).exitCode()).isZero();
        assertThat(Files.readAllLines(plain).subList(1, 3)).allSatisfy(l -> assertThat(l)
                .contains(",predicted,\"predicted by ring formula"));
        assertThat(Inputs.read(plain.toString()).get(0).provenance().kind()).isEqualTo(SourceKind.PREDICTED);
    }

    @Test
    void aCalibrationReadBackReproducesTheFittedTimesExactly() throws IOException {
        Path json = catalogueCalibration();
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode rest = (ObjectNode) mapper.readTree(json.toFile());
        JsonNode datasets = rest.remove("datasets");
        int checked = 0;
        for (JsonNode d : datasets) {
            // each dataset read back from a file of that dataset alone (the rest of the file as it is): the same
            // reader, without parsing the whole catalogue again for each of its hundreds of models
            ObjectNode alone = rest.deepCopy();
            alone.putArray("datasets").add(d);
            Path one = Files.writeString(dir.resolve("one.json"), mapper.writeValueAsString(alone));
            for (JsonNode m : d.path("models")) {
                PredictionModel pm = PredictionSources.calibration(one, d.path("id").asText(), m.path("name").asText());
                for (JsonNode x : m.path("residuals")) {
                    assertThat(pm.timeUs(x.path("bytes").asDouble()))
                            .as("%s %s at %s bytes", d.path("id").asText(), m.path("name").asText(), x.path("bytes"))
                            .isEqualTo(x.path("predicted_us").asDouble());
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
        CliRun one = CliRun.of("predict", "--calibration", json.toString(), "--dataset", H200, "--bytes", "1M");
        assertThat(one.exitCode()).as(one.err()).isZero();
        assertThat(one.out()).startsWith("# predicted by ").contains("from calibration " + json + ", dataset " + H200);
    }

    @Test
    void theTableFromACalibrationCarriesTheFittedTimesRowByRow() throws IOException {
        Path json = catalogueCalibration();
        CliRun r = CliRun.of("predict", "--calibration", json.toString(), "--dataset", H200, "--model", "B",
                "-b", "8", "-e", "16G", "-f", "2");
        assertThat(r.exitCode()).as(r.err()).isZero();
        Path table = dir.resolve("t.txt");
        Files.writeString(table, r.out());
        Sweep s = Inputs.read(table.toString()).get(0);
        JsonNode model = null;
        for (JsonNode d : new ObjectMapper().readTree(json.toFile()).path("datasets")) {
            if (d.path("id").asText().equals(H200)) {
                for (JsonNode m : d.path("models")) {
                    if (m.path("name").asText().equals("B")) {
                        model = m;
                    }
                }
            }
        }
        int matched = 0;
        for (JsonNode x : model.path("residuals")) {
            long b = x.path("bytes").asLong();
            for (Measurement row : s.rows()) {
                if (row.sizeBytes() == b) {
                    double t = x.path("predicted_us").asDouble();
                    Half fitted = new Half(t, row.outOfPlace().algBwGBps(), row.outOfPlace().busBwGBps(), null);
                    assertThat(NcclTestsTableWriter.row(row)).isEqualTo(NcclTestsTableWriter.row(
                            new Measurement(b, row.count(), row.type(), row.redop(), row.root(), fitted, fitted)));
                    matched++;
                }
            }
        }
        assertThat(matched).isEqualTo(model.path("residuals").size());
    }

    @Test
    void aReportWithSeveralDatasetsNeedsDataset() {
        Path json = catalogueCalibration();
        CliRun r = CliRun.of("predict", "--calibration", json.toString(), "--bytes", "1M");
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        // a whole-catalog report: the first ids and the count, on one line
        assertThat(r.err()).contains("pick one with --dataset ID").contains("a100_")
                .contains(" more; jq -r '.datasets[] | select(.models | length > 0) | .id' on the file lists all ")
                .doesNotContain(H200);
        assertThat(r.err().lines().count()).isLessThanOrEqualTo(2);
        // a mistyped id: the ids that start most like it come first
        CliRun typo = CliRun.of("predict", "--calibration", json.toString(), "--dataset", "h200_allreduce_8gpu_azure",
                "--bytes", "1M");
        assertThat(typo.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(typo.err()).contains("no dataset h200_allreduce_8gpu_azure in this calibration; it has: " + H200);
        CliRun m = CliRun.of("predict", "--calibration", json.toString(), "--dataset", H200, "--model", "nope",
                "--bytes", "1M");
        assertThat(m.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(m.err()).contains("has no model nope; it has: A, B, B+beta, naive, envelope");
    }

    @Test
    void anotherConfigurationIsNamedAsOutsideTheCalibratedRange() {
        CliRun r = CliRun.of("predict", "--dataset", H200, "--model", "B", "--gpus", "64", "-b", "1", "-e", "1T",
                "-f", "1024");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // no --nodes: the one host's fabric, said so (a new user read 64 GPUs on NVLink as a cluster's answer)
        assertThat(r.out()).contains("# N = 64 lies outside what was calibrated (N = 8): per-hop and per-step"
                + " parameters carried over; as if all 64 GPUs shared the fabric of the one host of 8 it measured:"
                + " for several hosts, predict from a calibration of a multi-node run, with --nodes")
                .containsPattern("# \\d+ sizes? below the calibrated range")
                .containsPattern("# \\d+ sizes? above the calibrated range");
    }

    @Test
    void borrowedParametersNameTheirDatasets() {
        CliRun r = CliRun.of("predict", "--interconnect", "NVLink4", "--gpus", "8", "--bytes", "1G");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("# parameters borrowed from").contains(H200);
    }

    @Test
    void theEnvelopeNamesItsProtocol() {
        CliRun r = CliRun.of("predict", "--dataset", H200, "--model", "envelope", "--bytes", "1K");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("protocol: LL");
        // its Ring/Tree crossover is that protocol's ring against a tree of the same latency and bandwidth: it moves
        // with the size's protocol, and says so
        assertThat(r.out()).containsPattern("Ring/Tree      : with LL's latency and bandwidth \\(the protocol at this"
                + " size; another size's protocol moves it\\): (Tree is faster|Ring is faster)");
    }

    /** NCCL runs AllToAll point to point: the envelope's ring steps are not named as NCCL's Ring. */
    @Test
    void anAllToAllIsNotCalledARing() {
        CliRun r = CliRun.of("predict", "--dataset", "a100_alltoall_8gpu_1node_superbench", "--model", "envelope",
                "--bytes", "1G");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // NCCL runs point-to-point sends on LL or Simple, never LL128: 1 GiB is Simple's
        assertThat(r.out()).contains("algorithm      : point-to-point (NCCL has no ring for AllToAll; the model counts"
                + " its N-1 peer exchanges as steps), protocol: Simple");
    }

    /**
     * On a multi-domain run, --dataset uses the family calibrate picks (here the algorithm envelope, 0.3 point below
     * the envelope's leave-one-out), not a family of its own choosing.
     */
    @Test
    void aMultiDomainDatasetPredictsWithTheFamilyCalibratePicks() throws IOException {
        String id = "mi300x_allreduce_16gpu_2node_rccl_hisohara";
        Path json = dir.resolve("mi300x.json");
        assertThat(CliRun.of("calibrate", id, "--json", json.toString()).exitCode()).isZero();
        String best = CalibrationFile.read(json).dataset(id).best();
        assertThat(best).isEqualTo("algorithms");
        CliRun r = CliRun.of("predict", "--dataset", id, "--bytes", "1M");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("# predicted by " + best + " from dataset " + id + " (calibrated now, as"
                + " calibrate picks: ");
    }

    /**
     * predict --collective: an AllReduce fit across domains predicts AllGather at AllGather's own steps and bytes,
     * the same per-step and per-byte parameters; where the other collective needs a parameter the fit never saw, or
     * the model has no steps per collective, it is refused in one line with exit 2.
     */
    @Test
    void anotherCollectiveTakesItsOwnStepsWithTheCalibratedParameters() {
        String id = "mi300x_allreduce_16gpu_2node_rccl_hisohara";
        PredictionModel ar = PredictionSources.dataset(id, "algorithms",
                org.ncclharness.calibration.hardware.HardwareFacts.bundled());
        PredictionModel ag = org.ncclharness.calibration.predict.OtherCollective.of(ar,
                org.ncclharness.calibration.measure.Collective.ALL_GATHER);
        double big = 8L << 30;
        // at 8 GiB both are Ring/Simple and bandwidth-bound: AllGather moves (N-1)/N of the bytes round the ring,
        // AllReduce 2(N-1)/N, so it takes about half as long
        org.ncclharness.calibration.model.AlgorithmEnvelopeModel m =
                (org.ncclharness.calibration.model.AlgorithmEnvelopeModel) ar.model();
        assertThat(m.chosen(big, ar.theta()).label()).isEqualTo("Ring/Simple");
        assertThat(ag.timeUs(big) / ar.timeUs(big)).isCloseTo(0.5, within(0.02));
        CliRun r = CliRun.of("predict", "--dataset", id, "--model", "algorithms", "--collective", "allgather",
                "--bytes", "8G");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("# AllGather predicted with the parameters of a fit of AllReduce")
                .contains(String.format(java.util.Locale.ROOT, "AllGather of 8589934592 bytes (8 GiB) on 16 GPUs: %s",
                        PredictCommand.time(ag.timeUs(big))));
        for (String[] args : List.of(
                // AllToAll never runs LL128: AllGather's LL128 was never fitted
                new String[] {"--dataset", "mi355x_alltoall_16gpu_2node_roce_ainic_rccl_alibaba", "--model",
                    "algorithms", "--collective", "allgather"},
                // an AllGather fit has no Tree: AllReduce's tree factor was never fitted
                new String[] {"--dataset", "h200_allgather_16gpu_2node_gdrdma_gke_a3ultra_skypilot", "--model",
                    "algorithms", "--collective", "allreduce"},
                new String[] {"--dataset", id, "--model", "two-tier", "--collective", "allgather"},
                new String[] {"--dataset", id, "--model", "algorithms", "--collective", "allsum"})) {
            List<String> line = new java.util.ArrayList<>(List.of("predict", "--bytes", "1M"));
            line.addAll(List.of(args));
            CliRun bad = CliRun.of(line.toArray(String[]::new));
            assertThat(bad.exitCode()).as(String.join(" ", line)).isEqualTo(ExitCode.USAGE);
            assertThat(bad.out()).isEmpty();
            assertThat(bad.err().lines().findFirst().orElse("")).contains("predict: ").contains("--collective")
                    .containsPattern("LL128|Tree|no steps per collective|unknown collective");
        }
    }

    @Test
    void aTwoTierModelMovesToMoreDomains() {
        CliRun r = CliRun.of("predict", "--dataset", "h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion", "--model",
                "two-tier", "--gpus", "64", "--bytes", "1G");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("# 8 domains of 8 GPUs lie outside what was calibrated (4x8)")
                .contains("algorithm      : two-tier");
        CliRun bad = CliRun.of("predict", "--dataset", "h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion",
                "--model", "two-tier", "--gpus", "60", "--bytes", "1G");
        assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.err()).contains("domain size");
        // --nodes alone: the domains keep their 8 GPUs, so N is 8 x 8, as --gpus 64 says
        CliRun nodes = CliRun.of("predict", "--dataset", "h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion",
                "--model", "two-tier", "--nodes", "8", "--bytes", "1G");
        assertThat(nodes.exitCode()).as(nodes.err()).isZero();
        assertThat(nodes.out()).isEqualTo(r.out());
        // a one-tier model of a multi-host run is refused at another N, as check refuses it: no term for the mix
        CliRun oneTier = CliRun.of("predict", "--dataset", "h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion",
                "--model", "envelope", "--gpus", "64", "--bytes", "1G");
        assertThat(oneTier.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(oneTier.err()).contains("model envelope has one tier, fitted to 32 GPUs on 4 nodes: at 64 GPUs");
    }

    @Test
    void badInputIsNamedFirstAndExitsTwo() {
        for (String[] args : List.of(
                new String[] {"predict", "--bytes", "14XB", "--gpus", "8", "--bandwidth", "25GB/s", "--step-latency", "1us"},
                new String[] {"predict", "--bytes", "1M", "--bandwidth", "25GB/s", "--step-latency", "1us"},
                new String[] {"predict", "--bytes", "1M", "--gpus", "8", "--bandwidth", "25GB/s"},
                new String[] {"predict", "--bytes", "1M"},
                new String[] {"predict", "--dataset", "no_such_dataset", "--bytes", "1M"},
                new String[] {"predict", "--dataset", H200, "--model", "nope", "--bytes", "1M"},
                new String[] {"predict", "--calibration", "/no/such/file.json", "--bytes", "1M"},
                new String[] {"predict", "--bytes", "1M", "--gpus", "1", "--bandwidth", "25GB/s", "--step-latency", "1us"},
                new String[] {"predict", "-b", "1K", "-e", "1M", "-f", "1", "--gpus", "8", "--bandwidth", "25GB/s",
                    "--step-latency", "1us"},
                new String[] {"predict", "--bytes", "1M", "-b", "1K", "--gpus", "8", "--bandwidth", "25GB/s",
                    "--step-latency", "1us"},
                new String[] {"predict", "--bytes", "1M", "--gpus", "8", "--bandwidth", "25GB", "--step-latency", "1us"},
                // the formula's own refusal was an internal error (exit 5) before
                new String[] {"predict", "--bytes", "1M", "--gpus", "8", "--bandwidth", "0GB/s", "--step-latency", "1us"},
                new String[] {"predict", "--interconnect", "NVLink9", "--gpus", "8", "--bytes", "1M"})) {
            CliRun r = CliRun.of(args);
            assertThat(r.exitCode()).as(Arrays.toString(args)).isEqualTo(ExitCode.USAGE);
            assertThat(r.out()).as("no half-written prediction").isEmpty();
            // The first line says what is wrong (picocli adds the usage after a malformed option value).
            assertThat(r.err().lines().findFirst().orElse("")).as(r.err())
                    .containsPattern("predict: |Invalid value|no such file|no bundled dataset|has no model|unknown interconnect");
        }
    }

    /**
     * A count too large to be a machine is refused in one line naming the flag the user typed: --gpus 1100000000
     * printed "-1.210e+10 us" (2 (N - 1) ring steps wrapped round an int), and --nodes 300000000 of an 8-GPU domain
     * was answered "--gpus must be at least 2, got -1894967296" though no --gpus was given.
     */
    @Test
    void aCountBeyondAnyMachineIsRefusedNamingItsFlag(@TempDir Path dir) throws IOException {
        CliRun gpus = CliRun.of("predict", "--dataset", "h100_allreduce_8gpu_azure_ndv5", "--gpus", "1100000000",
                "--bytes", "1G");
        assertThat(gpus.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(gpus.out()).isEmpty();
        assertThat(gpus.err().lines().findFirst().orElse("")).isEqualTo("Invalid value for option '--gpus':"
                + " 1100000000 is above 1048576 (2^20), the most GPUs or hosts a count here takes");
        CliRun most = CliRun.of("predict", "--dataset", "h100_allreduce_8gpu_azure_ndv5", "--gpus", "1048576",
                "--bytes", "1G");
        assertThat(most.exitCode()).as(most.err()).isZero();
        assertThat(most.out()).containsPattern("on 1048576 GPUs: [0-9.]+ s \\(");

        String oci = "a100_allreduce_16gpu_2node_oci_roce";
        Path cal = dir.resolve("cal.json");
        CliRun calibrate = CliRun.of("calibrate", oci, "--json", cal.toString());
        assertThat(calibrate.exitCode()).as(calibrate.err()).isZero();
        CliRun nodes = CliRun.of("predict", "--calibration", cal.toString(), "--dataset", oci, "--nodes", "300000000",
                "--bytes", "1G");
        assertThat(nodes.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(nodes.err().lines().findFirst().orElse("")).startsWith("Invalid value for option '--nodes':"
                + " 300000000 is above 1048576").doesNotContain("--gpus");
        // within the bound, but times the model's GPUs per node beyond it: still --nodes, with the product
        CliRun product = CliRun.of("predict", "--calibration", cal.toString(), "--dataset", oci, "--model",
                "hierarchical", "--nodes", "200000", "--bytes", "1G");
        assertThat(product.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(product.err()).isEqualTo("predict: --nodes 200000 of the model's 8 GPUs each is 1600000 GPUs,"
                + " above the 1048576 (2^20) a count here takes\n");
    }
}
