package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.calibrate.CalibrationFile;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.OutsideCitations;

class CalibrateCommandTest {

    @TempDir
    Path dir;

    /** The last command line run, with what it printed. */
    private CliRun last;



    /** calibrate runs print their whole detail, which these tests read. */
    private int run(String... args) {
        last = CliRun.of(args[0].equals("calibrate") ? verbose(args) : args);
        return last.exitCode();
    }

    private String stdout() {
        return last.out();
    }

    private String stderr() {
        return last.err();
    }

    @Test
    void byDefaultEachDatasetIsOneRowThatFitsATerminalAndNoUnknownDocumentIsCited() {
        CliRun r = CliRun.of("calibrate");
        assertThat(r.exitCode()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).allMatch(l -> l.length() <= 120)
                .noneMatch(l -> OutsideCitations.PATTERN.matcher(l).find() || l.matches(".*issue \\d.*"));
        // the seed block repeats the single-tier ids, under its legend (2 lines) and header
        int seedBlock = lines.indexOf(lines.stream().filter(l -> l.startsWith("# single-tier runs, the seed method"))
                .findFirst().orElseThrow());
        int seedEnd = seedBlock + 3;
        while (!lines.get(seedEnd).startsWith("#")) {
            seedEnd++;
        }
        List<String> outsideSeedBlock = new java.util.ArrayList<>(lines.subList(0, seedBlock));
        outsideSeedBlock.addAll(lines.subList(seedEnd, lines.size()));
        for (var d : org.ncclharness.calibration.datasets.DatasetCatalog.bundled().all()) {
            assertThat(outsideSeedBlock).as(d.id())
                    .filteredOn(l -> l.startsWith(d.id() + " ") || l.startsWith("#   " + d.id() + ":")).hasSize(1);
        }
        assertThat(lines).anyMatch(l -> l.matches("h200_allreduce_8gpu_azure_ndv5 +8 envelope +\\d+\\.\\d +\\d.* R.*"))
                .anyMatch(l -> l.startsWith("# flags: G generalized cross-validation"));
    }

    /**
     * The default summary names, for a single-tier run, what the method is about beside the model picked: the
     * interconnect, u_r and l_link, the values --verbose's table shows for the same run.
     */
    @Test
    void theDefaultSummaryShowsTheSeedHeadlineOfASingleTierRunAsVerboseDoes() {
        String id = "v100_allgather_12gpu_1node_nvlink2_dgx2_wohlbier";
        CliRun plain = CliRun.of("calibrate", id);
        assertThat(plain.exitCode()).isZero();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + id
                + " +(NVLink2-Switch) +(\\d\\.\\d{3}) +(\\d+\\.\\d{3}) +(\\S+)$").matcher(plain.out());
        assertThat(m.find()).as(plain.out()).isTrue();
        List<String> verbose = List.of(CliRun.of("calibrate", id, "--verbose").out().lines()
                .filter(l -> l.startsWith(id + " ")).findFirst().orElseThrow().split(" +"));
        // verbose: id, interconnect, N, b_phys, BusBWpk, u_r, b_fit, l_link, ...
        assertThat(verbose.get(1)).isEqualTo(m.group(1));
        assertThat(verbose.get(5)).isEqualTo(m.group(2));
        assertThat(verbose.get(7)).isEqualTo(m.group(3));
        assertThat(m.group(4)).isEqualTo("envelope");
    }

    /** A README path into the repository's datasets/ typed in another folder names the bundled id to pass. */
    @Test
    void aPathToABundledDatasetFromAnotherFolderNamesItsId() {
        CliRun r = CliRun.of("calibrate", "elsewhere/datasets/raw/h100_allreduce_16gpu_2node_aws_p5_efa_slurm.txt");
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("no such file, but h100_allreduce_16gpu_2node_aws_p5_efa_slurm is a bundled"
                + " dataset the jar holds: pass h100_allreduce_16gpu_2node_aws_p5_efa_slurm");
        assertThat(CliRun.of("check", "elsewhere/nosuch.txt").err())
                .contains("neither a file nor a bundled dataset id");
    }

    /**
     * A file name shorter than the header's first column ("# dataset") still gets one header line, every line of
     * it '#': a split header left a line without '#' that scripts read as a row. The ids are relative paths of 8
     * characters (the tests run in the module's folder; target/ is the build's own).
     */
    @Test
    void aShortFileNameDoesNotSplitTheHeader() throws IOException {
        Path log = Path.of("target/a");
        Path one = Path.of("target/b");
        try {
            Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt"),
                    log, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.copy(Path.of("../datasets/raw/a100_allreduce_8gpu_1node_azureml_ndv4_jzazure.txt"), one,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            CliRun r = CliRun.of("calibrate", log.toString(), "--interconnect", "EFA");
            assertThat(r.exitCode()).as(r.err()).isZero();
            List<String> lines = r.out().lines().toList();
            assertThat(lines).filteredOn(l -> !l.startsWith("#")).allMatch(l -> l.startsWith("target/a "))
                    .isNotEmpty();
            assertThat(lines).anyMatch(l -> l.startsWith("# dataset ") && l.contains(" N model "));
            // the single-tier table of --verbose likewise
            CliRun v = CliRun.of("calibrate", one.toString(), "--interconnect", "NVLink3", "--verbose");
            assertThat(v.exitCode()).as(v.err()).isZero();
            assertThat(v.out().lines()).anyMatch(l -> l.startsWith("# dataset ") && l.contains("interconnect"));
        } finally {
            Files.deleteIfExists(log);
            Files.deleteIfExists(one);
        }
    }

    /**
     * A 2-node run of 8 MiB-8 GiB: with η free its envelope turned to LL (η_LL far above 1) only beyond 8 GiB, a
     * bandwidth never measured (it printed 60126.2 GB/s, then "-" with U). With η at most 1 no protocol overtakes
     * Simple beyond the data: the row shows the bandwidth its largest sizes reach, under the 167.9 GB/s measured.
     * Its α is "-" with U: at 8 MiB busbw is already about half the largest, off the latency plateau.
     */
    @Test
    void noProtocolOvertakesSimpleBeyondTheDataSoTheRowShowsTheBandwidthTheSizesReach() {
        CliRun r = CliRun.of("calibrate", "h100_allreduce_16gpu_2node_ib_ndr_default_ncclTests290_partial");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("(?m)^h100_allreduce_16gpu_2node_ib_ndr_default_ncclTests290_partial +16"
                + " envelope +\\d+\\.\\d +- +1[56]\\d\\.\\d +IU$");
        CliRun measured = CliRun.of("calibrate", "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk");
        assertThat(measured.out()).containsPattern("(?m)^h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk +16 \\S+"
                + " +\\d+\\.\\d +\\d+\\.\\d +\\d+\\.\\d +R$");
    }

    /**
     * The same 2-node H100 run reaches 469 GB/s, above its 8 IB NDR NICs' 400 GB/s (its metadata states them):
     * flag R and a note, as a single-tier run above its NVLink line rate gets.
     */
    @Test
    void aMultiDomainRunAboveItsNetworksLineRateIsFlaggedAndSaysWhy() {
        CliRun r = CliRun.of("calibrate", "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk", "--verbose");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("note: busbw reaches 469.2 GB/s, above the 400 GB/s the network carries for"
                + " AllReduce between domains (8 IB-NDR NICs per domain, 400 GB/s): a tree or an in-network reduction"
                + " (NVLS, SHARP) moved the data");
        CliRun under = CliRun.of("calibrate", "h100_allreduce_16gpu_2node_ib_ndr_ring_ncclTests290_partial", "--verbose");
        assertThat(under.exitCode()).isZero();
        // 8 NICs of 50 GB/s stated, 156 GB/s measured: judged, and under
        assertThat(under.out()).contains("IB-NDR").doesNotContain("the network carries for");
    }

    @Test
    void withoutArgumentsEveryBundledDatasetIsCalibratedOrListed() {
        assertThat(run("calibrate")).isEqualTo(ExitCode.OK);
        String text = stdout();
        assertThat(text).contains("# two-tier calibration")
                .containsPattern("(?m)^h200_allreduce_8gpu_azure_ndv5 .* NVLink4 .* NVLS ")
                .containsPattern("(?m)^# h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk \\(two-tier\\): 2x8");
        assertThat(text).doesNotContainPattern("(?m)^a100_allreduce_8gpu_oci_bmgpu48 .* NVLS ");
    }

    @Test
    void aLogWithAFixedLinkLatencyGivesTheKnownAlphaInTheJsonReport() throws IOException {
        Path log = log("h200.txt", 8, "NVIDIA H200", 26.208, 400, true);
        Path json = dir.resolve("cal.json");
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4", "--link-latency", "0.936us",
                "--json", json.toString())).isEqualTo(ExitCode.OK);
        CalibrationFile.CalibratedModel b = CalibrationFile.read(json).dataset(log.toString()).model("B")
                .orElseThrow();
        assertThat(b.theta()[0]).isEqualTo(0.936);
        assertThat(((SingleTierModel) b.model()).alphaUs(b.theta())).isCloseTo(26.2, within(0.01));
        assertThat(stdout()).contains("report written to " + json);
    }

    @Test
    void aMissingInterconnectIsNamedWithTheFile() throws IOException {
        Path log = log("x.txt", 8, "NVIDIA H100", 30, 400, true);
        assertThat(run("calibrate", log.toString())).isEqualTo(ExitCode.USAGE);
        assertThat(stderr().strip()).isEqualTo(log + ": the file does not say its interconnect: pass"
                + " --interconnect NAME (one tier) or --intra NAME [--inter NAME] (two tiers)");
    }

    /**
     * A modeller's folder of one-host logs needs no flag where the GPU name tells the fabric (an SXM A100 on
     * NVLink3, as a real OCI log prints it); across hosts the network is still asked for.
     */
    @Test
    void aOneHostLogWhoseGpuNameTellsItsFabricNeedsNoFlag() throws IOException {
        Path sxm = log("sxm.txt", 8, "NVIDIA A100-SXM4-40GB", 30, 230, true);
        assertThat(run("calibrate", sxm.toString())).as(stderr()).isEqualTo(ExitCode.OK);
        assertThat(stdout()).contains("interconnect NVLink3 taken from the GPU name NVIDIA A100-SXM4-40GB"
                + " (--interconnect overrides it)").containsPattern(sxm + " +NVLink3 +8 ");
        // a real 2-host MI300X log: the name tells Infinity Fabric inside a host, nothing of the network
        List<String> raw = Files.readAllLines(Path.of("../datasets/raw/mi300x_allreduce_16gpu_2node_rccl_hisohara.txt"));
        Path mi = dir.resolve("mi300x.txt");
        Files.write(mi, raw.subList(raw.indexOf("=== RAW (copied verbatim from the source) ===") + 1, raw.size()));
        assertThat(run("calibrate", mi.toString())).isEqualTo(ExitCode.USAGE);
        assertThat(stderr().strip()).isEqualTo(mi + ": the run spans 2 hosts: inside a host InfinityFabric (from the"
                + " GPU name AMD Instinct MI300X), but the network between them is not stated: pass --interconnect"
                + " NAME (IB-NDR, RoCE-400G, EFA, Slingshot11, ...)");
        // a real 4-host log listing rank 0's 8 GPUs, its launch line removed: the host count is asked for, and
        // check does not judge it against the NVLink of one host
        List<String> h100 = Files.readAllLines(
                Path.of("../datasets/raw/h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion.txt"));
        Path partial = dir.resolve("partial.txt");
        Files.write(partial, h100.subList(h100.indexOf("=== RAW (copied verbatim from the source) ===") + 1,
                h100.size()).stream().filter(l -> !l.contains("mpirun")).toList());
        assertThat(run("calibrate", partial.toString())).isEqualTo(ExitCode.USAGE);
        assertThat(stderr().strip()).isEqualTo(partial + ": the device list shows 8 of the 32 ranks and no launch line"
                + " states the hosts: pass --nodes N and, across hosts, --interconnect NAME for the network");
        assertThat(CliRun.of("check", partial.toString()).out()).doesNotContain("from the GPU name");
        CliRun check = CliRun.of("check", sxm.toString());
        // check says what calibrate says of the same run: one resolution, one note
        assertThat(check.out()).contains("INFO: interconnect NVLink3 taken from the GPU name NVIDIA A100-SXM4-40GB"
                + " (--interconnect overrides it)").contains("of the line rate of NVLink3");
        CliRun csv = CliRun.of("convert", sxm.toString(), "--csv", dir.resolve("sxm.csv").toString());
        assertThat(csv.exitCode()).isZero();
        assertThat(csv.err()).startsWith("# note: the CSV holds the rows only, not the GPU model, the GPU count")
                .contains("the device list");
    }

    @Test
    void aLogWithoutDevicesGetsItsGpuCountFromBusbwOverAlgbwAndSaysSo() throws IOException {
        Path log = log("nodevices.txt", 8, "NVIDIA H100", 30, 400, false);
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4")).as(this::stderr).isEqualTo(ExitCode.OK);
        assertThat(stdout()).contains("N = 8 ranks, inferred from busbw/algbw");
        // the JSON report on standard output, the text on stderr: this command once wrote a file named '-' into
        // the module folder (committed as harness/-); '-' is standard output for every output now
        assertThat(Path.of("-")).doesNotExist();
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4", "--json", "-")).as(this::stderr)
                .isEqualTo(ExitCode.OK);
        assertThat(Path.of("-")).doesNotExist();
        JsonNode json = new ObjectMapper().readTree(stdout());
        assertThat(json.path("schema").asText()).isEqualTo("nccl-harness/calibration/2");
        assertThat(json.path("datasets").get(0).path("notes").toString())
                .contains("N = 8 ranks, inferred from busbw/algbw");
        assertThat(stderr()).contains("N = 8 ranks, inferred from busbw/algbw");
    }

    @Test
    void everyMissingFactIsNamedInOneMessage() throws IOException {
        // 2(N-1)/N of 1.999 cannot be solved to one N from two decimals: GPU count and interconnect both missing
        Path log = log("nodevices.txt", 2048, "NVIDIA H100", 30, 400, false);
        assertThat(run("calibrate", log.toString())).isEqualTo(ExitCode.USAGE);
        assertThat(stderr().lines().count()).isEqualTo(1);
        assertThat(stderr()).contains(log + ": the file does not say how many GPUs ran").contains("--gpus N")
                .contains("nor its interconnect");
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4", "--gpus", "2048"))
                .isEqualTo(ExitCode.OK);
        assertThat(stdout()).contains(log.toString());
        // a real log whose rows fit AllGather and AllToAll alike: its collective and its interconnect in one line
        List<String> raw = Files.readAllLines(
                Path.of("../datasets/raw/b200_allgather_16gpu_2node_roce_gke_a4_dranet.txt"));
        Path ag = dir.resolve("gke.txt");
        Files.write(ag, raw.subList(raw.indexOf("=== RAW (copied verbatim from the source) ===") + 1, raw.size()));
        assertThat(run("calibrate", ag.toString())).isEqualTo(ExitCode.USAGE);
        assertThat(stderr().lines().count()).isEqualTo(1);
        assertThat(stderr()).contains("pass --collective NAME").contains("nor does it say its interconnect");
    }

    @Test
    void anUnknownInterconnectListsTheVocabulary() throws IOException {
        Path log = log("x.txt", 8, "NVIDIA H100", 30, 400, true);
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink9")).isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("unknown interconnect NVLink9").contains("NVLink4, NVLink4-Direct, NVLink4-Bridge");
    }

    @Test
    void aBadRowNamesItsLineAndNothingIsWritten() throws IOException {
        Path log = log("bad.txt", 8, "NVIDIA H100", 30, 400, true);
        List<String> lines = new ArrayList<>(Files.readAllLines(log));
        int bad = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().startsWith("1048576 ")) {
                lines.set(i, lines.get(i).replaceFirst("float", "float   sum  -1  12x.5"));
                bad = i + 1;
            }
        }
        Files.write(log, lines);
        Path json = dir.resolve("never.json");
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4", "--json", json.toString()))
                .isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).startsWith(log + ":" + bad + ": ");
        assertThat(stderr().strip().lines()).hasSize(1);
        assertThat(json).doesNotExist();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("bad.txt");
    }

    @Test
    void everyBadFileOfAFolderIsNamedAtOnceAndNothingIsWritten() throws IOException {
        Path good = log("good.txt", 8, "NVIDIA H100", 30, 400, true);
        Path empty = Files.writeString(dir.resolve("empty.txt"), "");
        Path json = dir.resolve("never.json");
        assertThat(run("calibrate", good.toString(), empty.toString(), dir.resolve("gone.txt").toString(),
                "--interconnect", "NVLink4", "--json", json.toString())).isEqualTo(ExitCode.USAGE);
        List<String> err = stderr().strip().lines().toList();
        assertThat(err.get(0)).isEqualTo("2 of the 3 inputs could not be used (each line says why and what to pass); nothing was written:");
        assertThat(err.subList(1, err.size())).hasSize(2)
                .anySatisfy(l -> assertThat(l).startsWith(empty.toString()))
                .anySatisfy(l -> assertThat(l).startsWith(dir.resolve("gone.txt").toString()));
        assertThat(json).doesNotExist();
    }

    @Test
    void anExistingReportIsNeverOverwrittenWithoutForce() throws IOException {
        Path log = log("x.txt", 8, "NVIDIA H100", 30, 400, true);
        Path json = dir.resolve("cal.json");
        Files.writeString(json, "keep me");
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4", "--json", json.toString()))
                .isEqualTo(ExitCode.USAGE);
        assertThat(Files.readString(json)).isEqualTo("keep me");
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4", "--json", json.toString(),
                "--force")).isEqualTo(ExitCode.OK);
        assertThat(Files.readString(json)).contains("nccl-harness/calibration/2");
    }

    @Test
    void aBadLatencyIsAUsageError() throws IOException {
        Path log = log("x.txt", 8, "NVIDIA H100", 30, 400, true);
        assertThat(run("calibrate", log.toString(), "--interconnect", "NVLink4", "--link-latency", "0.9"))
                .isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("'0.9' is not a latency");
    }

    /** An nccl-tests 2.19.6 log of T = α + f·M/β, 1 KiB to 1 GiB, as our own table writer prints it. */
    private Path log(String name, int ranks, String gpu, double alphaUs, double betaGBps, boolean devices)
            throws IOException {
        Collective c = Collective.ALL_REDUCE;
        double f = c.busFactor(ranks);
        List<Measurement> rows = new ArrayList<>();
        for (long m = 1024; m <= 1L << 30; m *= 2) {
            double t = alphaUs + f * m / (betaGBps * 1e3);
            double alg = m / (t * 1e3);
            Half h = new Half(Double.parseDouble(String.format(Locale.ROOT, "%.2f", t)), alg, alg * f, 0.0);
            rows.add(new Measurement(m, m / 4, "float", "sum", -1, h, h));
        }
        List<Device> devs = new ArrayList<>();
        if (devices) {
            for (int r = 0; r < ranks; r++) {
                devs.add(new Device(r, 0, 4242, "node01", r, String.format("0000:%02x:00", r + 16), gpu));
            }
        }
        Sweep s = new Sweep(Provenance.stored(name), c, RunInfo.unknown(), Hardware.unknown(), devs, rows, List.of());
        StringWriter sw = new StringWriter();
        NcclTestsTableWriter.write(new PrintWriter(sw), s, List.of("# Collective test starting: all_reduce_perf"));
        Path p = dir.resolve(name);
        Files.writeString(p, sw.toString());
        return p;
    }

    private static String[] verbose(String[] args) {
        String[] v = java.util.Arrays.copyOf(args, args.length + 1);
        v[args.length] = "--verbose";
        return v;
    }

    /**
     * Issue 43: the plain summary skips the leave-one-out of families that cannot win (Scoring.PICK_ONLY, held to
     * the same pick by PickOnlyTest); what stores every family's score, the JSON, still scores every one. On this
     * run the summary path leaves both two-tier forms and the protocol envelope unscored.
     */
    @Test
    void theJsonScoresEveryFamilyWhereThePlainSummaryScoresOnlyThePick() throws IOException {
        String id = "h100_allreduce_16gpu_2node_aws_p5_efa_slurm";
        CliRun json = CliRun.of("calibrate", id, "--json", "-");
        assertThat(json.exitCode()).isZero();
        JsonNode scores = new ObjectMapper().readTree(json.out()).path("datasets").get(0).path("model_choice")
                .path("leave_one_out_pct");
        assertThat(scores.size()).as(json.out()).isGreaterThanOrEqualTo(4);
        scores.forEach(v -> assertThat(v.isNumber()).as(scores.toString()).isTrue());
        assertThat(json.out()).doesNotContain("cannot be picked");
        CliRun plain = CliRun.of("calibrate", id);
        assertThat(plain.exitCode()).isZero();
        assertThat(plain.out()).contains(id + " ");
    }
}
