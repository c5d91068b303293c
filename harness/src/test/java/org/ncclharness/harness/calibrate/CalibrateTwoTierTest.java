package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.calibrate.CalibrationFile;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParams;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.CliRun;

/** {@code calibrate} on multi-domain logs: --intra/--inter/--domain-size, --joint, --config. */
class CalibrateTwoTierTest {

    private static final TwoTierParams TRUTH = new TwoTierParams(0.8, 300, 0.9, 4.0, 12.0);

    @TempDir
    Path dir;

    /** The last command line run, with what it printed. */
    private CliRun last;



    /** A real 2-host log (OCI A100 over RoCE): --interconnect is the network, never the NVLink tier. */
    @Test
    void onAMultiHostLogTheInterconnectIsTheNetworkAndTheTierInsideComesFromTheGpuName(@TempDir Path dir)
            throws IOException {
        Path log = dir.resolve("run.txt");
        Files.copy(Path.of("../datasets/raw/a100_allreduce_16gpu_2node_oci_roce.txt"), log);
        assertThat(run("calibrate", log.toString(), "--interconnect", "RoCE-100G")).as(last.err()).isZero();
        assertThat(last.out()).contains("(two-tier): 2x8").contains("NVLink3 b_NV 300 GB/s").contains("inter RoCE-100G")
                .contains("--interconnect RoCE-100G taken as the network between the 2 hosts; inside a host NVLink3");
        Path unknown = dir.resolve("mystery.txt");
        Files.writeString(unknown, Files.readString(log).replace("NVIDIA A100-SXM4-40GB", "Mystery GPU"));
        assertThat(run("calibrate", unknown.toString(), "--interconnect", "RoCE-100G")).isEqualTo(2);
        assertThat(last.err()).contains("the run spans 2 hosts, so --interconnect RoCE-100G names the network between"
                + " them; the fabric inside a host is not known from the GPU name (Mystery GPU): pass --intra NAME"
                + " --inter RoCE-100G instead of --interconnect");
    }

    /**
     * Issue 13's command on a real 2-node H100 log: every family is fitted, one is picked by leave-one-out and the
     * report says why; the JSON's best is that pick, and predict --calibration uses it.
     */
    @Test
    void aRealTwoNodeLogPicksAProtocolAwareModelAndPredictUsesIt(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("run.txt");
        Files.copy(Path.of("../datasets/raw/h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk.txt"), log);
        Path json = dir.resolve("cal.json");
        assertThat(run("calibrate", log.toString(), "--gpus", "16", "--nodes", "2", "--intra", "NVLink4", "--inter",
                "IB-NDR", "--json", json.toString())).as(last.err()).isZero();
        assertThat(stdout()).containsPattern("#   model choice: (envelope|algorithms) \\((lowest leave-one-out|leave-one-out"
                + " RMSPE)").contains("hierarchical", "flat-ring").containsPattern("#     picks Tree/LL .*Ring/Simple");
        CalibrationFile.Entry e = CalibrationFile.read(json).dataset(log.toString());
        assertThat(e.best()).isIn("envelope", "algorithms");
        // the pick's leave-one-out is at most 1 point above the lowest of the four families
        double pick = e.bestModel().orElseThrow().leaveOneOutRmspePct();
        double lowest = e.models().stream().mapToDouble(CalibrationFile.CalibratedModel::leaveOneOutRmspePct).min()
                .orElseThrow();
        assertThat(pick).isLessThanOrEqualTo(lowest + 1);
        assertThat(e.model("hierarchical").orElseThrow().leaveOneOutRmspePct()).isGreaterThan(pick);
        assertThat(run("predict", "--calibration", json.toString(), "-b", "1M", "-e", "1M")).as(last.err()).isZero();
        assertThat(last.out()).startsWith("# predicted by " + e.best() + " from calibration " + json);
        assertThat(run("predict", "--calibration", json.toString(), "--model", "algorithms", "--gpus", "64",
                "--nodes", "8", "-b", "1M", "-e", "1M")).as(last.err()).isZero();
        assertThat(last.out()).contains("8 domains of 8 GPUs lie outside what was calibrated (2x8)")
                .contains(", for 64 GPUs in 8 domains of 8\n");
        // read back, the table keeps the configuration it was predicted for
        Path table = json.resolveSibling("pred64.txt");
        Files.writeString(table, last.out());
        org.ncclharness.calibration.measure.Hardware back = org.ncclharness.calibration.read.Inputs.read(
                table.toString()).get(0).hardware();
        assertThat(back.ranks()).isEqualTo(64);
        assertThat(back.domains()).isEqualTo(8);
        assertThat(back.domainSize()).isEqualTo(8);
        // one size: the algorithm and protocol the envelope takes there, the other algorithm's best beside it (not
        // faster: the envelope already weighed it), and where the two change places in this model
        assertThat(run("predict", "--calibration", json.toString(), "--model", "algorithms", "--bytes", "64K"))
                .as(last.err()).isZero();
        assertThat(last.out()).containsPattern("algorithm      : (Ring|Tree), protocol: (LL|LL128|Simple)\\n")
                .containsPattern("alternative    : (Ring|Tree) would take .* \\(the algorithm envelope's (Ring|Tree) on"
                        + " its fastest protocol, at this configuration\\)")
                .containsPattern("Ring/Tree      : (Tree is faster below|Ring is faster below|in this model|Ring and Tree"
                        + " change places)");
        org.ncclharness.calibration.predict.Prediction p = org.ncclharness.calibration.predict.Prediction.of(
                org.ncclharness.calibration.predict.PredictionSources.calibration(json, null, "algorithms"), 65536);
        assertThat(p.alternative()).hasValueSatisfying(a -> assertThat(a.timeUs()).isGreaterThanOrEqualTo(p.timeUs()));
    }

    /**
     * A real 2-host AllGather (GKE A4 B200 over RoCE): the two-tier forms are AllReduce's, so it gets the envelope
     * and the algorithm envelope at AllGather's step counts, one of them picked; predict uses the pick and moves
     * the algorithm envelope to 8 hosts.
     */
    @Test
    void aRealTwoHostAllGatherIsCalibratedWithTheEnvelopesAndPredictUsesThePick(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("allgather.txt");
        Files.copy(Path.of("../datasets/raw/b200_allgather_16gpu_2node_roce_gke_a4_dranet.txt"), log);
        Path json = dir.resolve("cal.json");
        assertThat(run("calibrate", log.toString(), "--collective", "all_gather", "--interconnect", "RoCE-400G",
                "--json", json.toString())).as(last.err()).isZero();
        assertThat(stdout()).contains("(two-tier): 2x8").contains("better form: none fitted (the two-tier models"
                        + " describe AllReduce; this is AllGather)").doesNotContain("hierarchical: T =")
                .containsPattern("#   model choice: (envelope|algorithms) ").contains("#     picks Ring/LL ")
                .doesNotContain("Tree/");
        CalibrationFile.Entry e = CalibrationFile.read(json).dataset(log.toString());
        assertThat(e.collective()).isEqualTo("all_gather");
        assertThat(e.models()).extracting(CalibrationFile.CalibratedModel::name).containsExactly("envelope",
                "algorithms");
        assertThat(run("predict", "--calibration", json.toString(), "--bytes", "1G")).as(last.err()).isZero();
        assertThat(last.out()).startsWith("# predicted by " + e.best() + " from calibration " + json)
                .contains("AllGather of 1073741824 bytes (1 GiB) on 16 GPUs");
        assertThat(run("predict", "--calibration", json.toString(), "--model", "algorithms", "--gpus", "64",
                "--nodes", "8", "--bytes", "1G")).as(last.err()).isZero();
        assertThat(last.out()).contains("8 domains of 8 GPUs lie outside what was calibrated (2x8)")
                .contains("on 64 GPUs").contains("fastest of Ring (NCCL's Tree is AllReduce's, this is AllGather)");
    }

    /**
     * A real 8-node SendRecv log of two tables (a sweep, then 64 MiB alone): the one-size table is not calibrated,
     * and predict takes the one that is without --dataset. The same log cut after 7 sizes calibrates nothing: exit
     * 2, the reason led by the shortfall, and no JSON written.
     */
    @Test
    void aTableLeftUncalibratedIsNotOfferedAndATextCalibratingNothingExitsTwo(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("sendrecv.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/"
                + "coll_b200_sendrecv_64gpu_8node_together_two_tables.txt"), log);
        Path json = dir.resolve("cal.json");
        CliRun both = CliRun.of("calibrate", log.toString(), "--interconnect", "IB-NDR", "--json", json.toString());
        assertThat(both.exitCode()).as(both.err()).isZero();
        assertThat(both.out()).contains("# not calibrated:").contains(log + "#2");
        CliRun predict = CliRun.of("predict", "--calibration", json.toString(), "--bytes", "64M");
        assertThat(predict.exitCode()).as(predict.err()).isZero();
        assertThat(predict.out()).contains(log + "#1");

        List<String> lines = Files.readAllLines(log);
        int seventhRow = lines.indexOf(lines.stream().filter(l -> l.strip().startsWith("65536 ")).findFirst()
                .orElseThrow());
        Path cut = dir.resolve("cut.txt");
        Files.write(cut, lines.subList(0, seventhRow + 1));
        Path none = dir.resolve("none.json");
        CliRun nothing = CliRun.of("calibrate", cut.toString(), "--interconnect", "IB-NDR", "--json", none.toString());
        assertThat(nothing.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(nothing.out()).contains("too few sizes: the envelopes need alpha and beta from the data and more"
                + " sizes than their parameters (7 here");
        assertThat(nothing.err()).contains("no table could be calibrated (each one's reason is above); nothing was"
                + " written");
        assertThat(none).doesNotExist();
    }

    /**
     * NICs per host, from --nics-per-host or from the log's own NCCL INFO lines, reach the report (per NIC, the
     * R flag past 8 x 50 GB/s on this real 2-node log that ran a tree) and the JSON; check against that calibration
     * takes the fabric and the NICs from it when the run states neither, and explains a busbw above the line
     * rate as calibrate does.
     */
    @Test
    void nicsPerHostComeFromTheFlagOrTheLogAndCheckJudgesTheLineRateFromTheCalibration(@TempDir Path dir)
            throws IOException {
        Path log = dir.resolve("run.txt");
        Files.copy(Path.of("../datasets/raw/h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk.txt"), log);
        Path json = dir.resolve("cal.json");
        assertThat(run("calibrate", log.toString(), "--gpus", "16", "--nodes", "2", "--intra", "NVLink4", "--inter",
                "IB-NDR", "--nics-per-host", "8", "--json", json.toString())).as(last.err()).isZero();
        assertThat(stdout()).contains("(8 NICs per domain)").contains("the network carries for AllReduce between"
                + " domains (8 IB-NDR NICs per domain, 400 GB/s): a tree or an in-network reduction (NVLS, SHARP) moved"
                + " the data");
        assertThat(CalibrationFile.read(json).dataset(log.toString()).nicsPerDomain()).isEqualTo(8);
        // a two-tier form moved to 8 domains keeps the busbw a 2-node NVLSTree run reached (nccl-tests#294):
        // said, as an upper bound
        Path nvlsTree = dir.resolve("nvlstree.json");
        assertThat(run("calibrate", "../calibration/src/test/resources/logs/real/"
                + "rowsonly_h100_2x8_ib_after_mpi1_nccltests294.txt", "--intra", "NVLink4", "--inter", "IB-NDR",
                "--nodes", "2", "--nics-per-host", "8", "--json", nvlsTree.toString())).as(last.err()).isZero();
        assertThat(run("predict", "--calibration", nvlsTree.toString(), "--gpus", "64", "--nodes", "8", "-b", "1G",
                "-e", "1G")).as(last.err()).isZero();
        assertThat(last.out()).containsPattern("# at 8 domains the model's busbw far out, [0-9.]+ GB/s, stands above"
                + " the network's line rate, 400.0 GB/s per domain");
        // the same NICs named by the log itself (planted NCCL INFO lines, the format NCCL 2.x prints)
        Path withInfo = dir.resolve("info.txt");
        StringBuilder info = new StringBuilder();
        for (int rank = 0; rank < 2; rank++) {
            info.append("node").append(rank).append(":100:100 [0] NCCL INFO NET/IB : Using");
            for (int nic = 0; nic < 8; nic++) {
                info.append(" [").append(nic).append("]mlx5_").append(nic).append(":1/IB");
            }
            info.append(" [RO]; OOB eth0:10.0.0.").append(rank + 1).append("<0>\n");
        }
        Files.writeString(withInfo, info + Files.readString(log));
        assertThat(run("calibrate", withInfo.toString(), "--gpus", "16", "--nodes", "2", "--intra", "NVLink4",
                "--inter", "IB-NDR")).as(last.err()).isZero();
        assertThat(stdout()).contains("(8 NICs per domain)");
        assertThat(run("calibrate", log.toString(), "--gpus", "16", "--nodes", "2", "--intra", "NVLink4", "--inter",
                "IB-NDR", "--nics-per-host", "0")).isEqualTo(2);
        assertThat(stderr()).contains("--nics-per-host").contains("invalid --nics-per-host 0: expected 1 or more");
        // check: the run states no fabric; the calibration's is used, and the report says so
        CliRun check = CliRun.of("check", log.toString(), "--calibration", json.toString());
        assertThat(check.exitCode()).as(check.err()).isNotEqualTo(2);
        assertThat(check.out()).contains("INFO: the run does not state its interconnect: judged on calibration entry "
                + log + "'s (NVLink4 inside a host, IB-NDR between hosts); --interconnect overrides it")
                .contains("% of the line rate of 8 IB-NDR NICs per host at 50 GB/s (400 GB/s); above the line rate: a tree or an"
                        + " in-network reduction (NVLS, SHARP) moved the data");
        CliRun stated = CliRun.of("check", log.toString(), "--calibration", json.toString(), "--interconnect",
                "RoCE-400G");
        assertThat(stated.out()).doesNotContain("judged on calibration entry").contains("RoCE-400G");
    }

    /**
     * A real 2-host H200 log of 25 sizes (Dell, BlueField-3 400GbE RoCE): too few for the algorithm envelope's
     * leave-one-out (27), enough for the envelope's (21). The pick compared the algorithm envelope by its generalized
     * cross-validation estimate, and the summary row shows that score flagged G, not the in-sample floor that once
     * read as a lower score than the one the pick rested on.
     */
    @Test
    void aPickMadeByGeneralizedCrossValidationShowsThatScoreInTheSummaryRow(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("dell.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_h200_2x8_roce_dell_schmaustech.txt"),
                log);
        // run() adds --verbose to calibrate: the detail, then the summary rows
        assertThat(run("calibrate", log.toString(), "--interconnect", "RoCE-400G")).as(last.err()).isZero();
        Matcher choice = Pattern.compile("#   model choice: algorithms \\(lowest"
                + " out-of-sample RMSPE, ([0-9.]+) % by generalized cross-validation").matcher(stdout());
        assertThat(choice.find()).as(stdout()).isTrue();
        // the row (under its id, which a temporary folder's path puts on a line of its own)
        assertThat(stdout()).containsPattern("(?m) 16 algorithms +" + Pattern.quote(choice.group(1))
                + " +[0-9.]+ +[0-9.]+ G");
    }

    /**
     * A 2-host log whose GPU name says nothing of the fabric inside a host (the real Dell H200 log with its GPUs
     * renamed to a model gpu-fabrics.json does not list): the first message asks for both tiers, not for an
     * --interconnect that the next run would refuse.
     */
    @Test
    void aMultiHostLogOfAnUnknownGpuAsksForBothTiersAtOnce(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("unknown-gpu.txt");
        Files.writeString(log, Files.readString(Path.of(
                "../calibration/src/test/resources/logs/real/twohost_h200_2x8_roce_dell_schmaustech.txt"))
                .replace("NVIDIA H200", "NVIDIA RTX 6000D"));
        assertThat(run("calibrate", log.toString())).isEqualTo(ExitCode.USAGE);
        assertThat(last.err().strip()).isEqualTo(log + ": the file does not say the fabric inside a host (the GPU name"
                + " NVIDIA RTX 6000D is not one hardware/gpu-fabrics.json knows), nor the network between its 2 hosts:"
                + " pass --intra NAME (NVLink4, PCIe5, ...) --inter NAME (IB-NDR, RoCE-400G, EFA, Slingshot11, ...)");
        assertThat(run("calibrate", log.toString(), "--intra", "PCIe5", "--inter", "RoCE-400G")).as(last.err())
                .isZero();
    }

    /**
     * The real 512-GPU Alps run is bumpy at its end (1 GiB at 36 GB/s bus, 4 GiB at 90): the algorithm envelope's
     * bandwidth beyond the sweep comes out at about 204 GB/s. Once the network's line rate is known (4 NICs of
     * Slingshot 11 per node: 100 GB/s) and no measured size reached it, the row says the data do not give that
     * bandwidth ("-", flag U) instead of printing it; unknown, the number is printed and flagged X, far above the
     * largest busbw measured.
     */
    @Test
    void aBandwidthBeyondTheNetworksLineRateThatNoSizeReachedIsNotPrinted(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("alps512.txt");
        Files.copy(Path.of("../datasets/raw/gh200_allreduce_512gpu_128node_slingshot_alps_tunedcxi.txt"), log);
        CliRun known = CliRun.of("calibrate", log.toString(), "--interconnect", "Slingshot11", "--nics-per-host", "4");
        assertThat(known.exitCode()).as(known.err()).isZero();
        assertThat(known.out()).containsPattern(" 512 algorithms +[0-9.]+ +[0-9.]+ +- U\\n");
        CliRun unknown = CliRun.of("calibrate", log.toString(), "--interconnect", "Slingshot11");
        assertThat(unknown.exitCode()).as(unknown.err()).isZero();
        Matcher row = Pattern.compile(" 512 algorithms +[0-9.]+ +[0-9.]+ +([0-9.]+) X\\n").matcher(unknown.out());
        assertThat(row.find()).as(unknown.out()).isTrue();
        assertThat(Double.parseDouble(row.group(1))).isGreaterThan(100);
    }

    /**
     * A user's Slurm output of the Alps series (the bundled raw file without the project's header): NCCL printed no
     * INFO lines, but the job's shell trace exports libfabric CXI settings, so the network is Slingshot 11 with no
     * flag, and the note says where that came from.
     */
    @Test
    void aLogWhoseEnvironmentSetsCxiNeedsNoNetworkFlag(@TempDir Path dir) throws IOException {
        List<String> raw = Files.readAllLines(Path.of(
                "../datasets/raw/gh200_allreduce_16gpu_4node_slingshot_alps_tunedcxi.txt"));
        int from = raw.indexOf("=== RAW (copied verbatim from the source) ===") + 1;
        Path log = Files.write(dir.resolve("slurm-146888.out"), raw.subList(from, raw.indexOf("=== END RAW ===")));
        CliRun r = CliRun.of("calibrate", log.toString(), "--verbose");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inter Slingshot11").contains("Slingshot11 (from the job's environment in the log:"
                + " 'FI_CXI_DEFAULT_CQ_SIZE=131072'; --interconnect overrides it) taken as the network between the 4"
                + " hosts");
    }

    /** A joint fit over runs of two hardwares names which run is on which fabric, so the odd ones can be dropped. */
    @Test
    void aJointFitOverTwoFabricsNamesTheRunsOnEach() {
        String alps8 = "gh200_allreduce_8gpu_2node_slingshot_alps_tunedcxi";
        String alps16 = "gh200_allreduce_16gpu_4node_slingshot_alps_tunedcxi";
        String polaris8 = "a100_allreduce_8gpu_2node_slingshot_polaris_nccl2215";
        assertThat(run("calibrate", "--joint", alps8, alps16, polaris8)).isEqualTo(ExitCode.USAGE);
        assertThat(last.err().strip()).isEqualTo("--joint: the runs name different intra-domain fabrics (NVLink4-Direct: "
                + alps8 + ", " + alps16 + "; NVLink3: " + polaris8 + "); a joint fit is for one hardware at several"
                + " configurations");
    }

    /**
     * A real 2-host log of 3 sizes: no family can be scored by leave-one-out, and the summary row, the verbose
     * choice, the JSON's best and predict still name one model (the summary row once named the other form).
     */
    @Test
    void withTooFewSizesForLeaveOneOutEveryOutputNamesTheSameModel(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("oke.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_a100_2x8_oke_rdma_3sizes.txt"), log);
        Path json = dir.resolve("cal.json");
        CliRun summary = CliRun.of("calibrate", log.toString(), "--interconnect", "RoCE-100G", "--json",
                json.toString());
        assertThat(summary.exitCode()).as(summary.err()).isZero();
        String best = CalibrationFile.read(json).dataset(log.toString()).best();
        assertThat(summary.out()).containsPattern("oke\\.txt +16 " + best + " ");
        assertThat(run("calibrate", log.toString(), "--interconnect", "RoCE-100G")).as(last.err()).isZero();
        assertThat(stdout()).contains("#   model choice: " + best + " (no family has enough points for leave-one-out; "
                + best + ", the two-tier form with the lower in-sample RMSPE)")
                .contains("3 points for 5 parameters: the fit can bend to every point");
        assertThat(run("predict", "--calibration", json.toString(), "-b", "1G", "-e", "1G")).as(last.err()).isZero();
        assertThat(last.out()).startsWith("# predicted by " + best + " from calibration " + json)
                .containsPattern("# the calibration's data do not determine [^:]*u_NV[^:]* of " + best + ": these"
                        + " predictions rest on the fit's bounds there, not on measurements");
    }

    /**
     * A real 2-host log that names neither its devices nor its hosts (dstack's console, an mpirun line of
     * variables): a flag naming a network is not read as the one tier of one host (that called its 696 GB/s SHARP,
     * and check passed it); calibrate and check ask for --nodes.
     */
    @Test
    void aNetworkFlagOnAFileWithoutItsHostCountAsksForNodes(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("b200.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_b200_2x8_dstack_lambda_nohash.txt"),
                log);
        String ask = "the file does not say how many hosts ran, and %s names a network between hosts: pass --nodes N";
        for (String[] flags : new String[][] {{"--interconnect", "IB-NDR"}, {"--intra", "NVLink5", "--inter",
            "IB-NDR"}}) {
            List<String> args = new ArrayList<>(List.of("calibrate", log.toString()));
            args.addAll(List.of(flags));
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(r.err()).contains(log + ": " + String.format(ask, flags[flags.length - 2] + " IB-NDR"));
        }
        CliRun check = CliRun.of("check", log.toString(), "--interconnect", "IB-NDR");
        assertThat(check.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(check.err()).contains(String.format(ask, "--interconnect IB-NDR"));
        // given the hosts, both go on; an NVLink flag alone still means one host, with a note
        assertThat(CliRun.of("calibrate", log.toString(), "--intra", "NVLink5", "--inter", "IB-NDR", "--nodes", "2")
                .exitCode()).isZero();
        assertThat(CliRun.of("check", log.toString(), "--interconnect", "IB-NDR", "--nodes", "2").out())
                .doesNotContain("SHARP");
        CliRun nvlink = CliRun.of("calibrate", log.toString(), "--interconnect", "NVLink5", "--verbose");
        assertThat(nvlink.exitCode()).isZero();
        assertThat(nvlink.out()).contains("the file does not say how many nodes ran: 1 assumed (pass --nodes N)");
    }

    /** The network named by the log's NCCL lines (aws-ofi-nccl's efa provider) is taken, and said; a flag wins. */
    @Test
    void aLogWhoseNcclLinesNameTheNetworkNeedsNoFlagForIt(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("p3dn.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt"),
                log);
        CliRun r = CliRun.of("calibrate", log.toString(), "--verbose");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inter EFA").contains("EFA (from the log's NCCL lines: 'NET/OFI Selected"
                + " Provider is efa'; --interconnect overrides it) taken as the network between the 2 hosts");
        CliRun flag = CliRun.of("calibrate", log.toString(), "--interconnect", "RoCE-100G", "--verbose");
        assertThat(flag.out()).contains("inter RoCE-100G").doesNotContain("from the log's NCCL lines");
        CliRun check = CliRun.of("check", log.toString());
        assertThat(check.out()).doesNotContain("the run states no interconnect");
    }

    /**
     * One --interconnect over a folder of one- and two-host logs: the one-host run keeps its GPU's fabric (no SHARP
     * read into an NVLink run), and a log whose own lines name another network says the flag overrode them. A
     * one-host run whose GPU is not named gets the network as its tier, and busbw above it is not called SHARP.
     */
    @Test
    void aNetworkFlagOverAMixedFolderFitsEachLog() {
        CliRun r = CliRun.of("calibrate", "../datasets/raw/v100_allgather_12gpu_1node_nvlink2_dgx2_wohlbier.txt",
                "../datasets/raw/gh200_allreduce_8gpu_2node_slingshot_alps_tunedcxi.txt", "--interconnect", "IB-NDR",
                "--verbose");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("--interconnect IB-NDR names a network between hosts, and this run is on one"
                + " host: inside it NVLink2-Switch is taken").contains("the log says Slingshot11 (the job's environment")
                .doesNotContain("SHARP: busbw");
        CliRun unnamed = CliRun.of("calibrate", "../datasets/raw/h100_allreduce_8gpu_1node_aws_p5_batch.txt",
                "--interconnect", "IB-NDR", "--verbose");
        assertThat(unnamed.out()).contains("ABOVE-PEAK: busbw at the largest size (483.05 GB/s) exceeds beta_phys"
                + " (50.00 GB/s): a run on one host did not move its data over IB-NDR").doesNotContain("SHARP: busbw");
    }

    /**
     * One GPU per host, a GPU whose fabric inside a host is not known (A10G): the network is the only tier, and
     * the log's 'Using network Socket' names it, as check already read it.
     */
    @Test
    void oneGpuPerHostOnANetworkTheLogNamesNeedsNoFlag() {
        String log = "../calibration/src/test/resources/logs/real/twohost_a10g_2x1_socket_ncclinfo_awsbatch_errorcol.txt";
        CliRun r = CliRun.of("calibrate", log, "--verbose");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("TCP (from the log's NCCL lines: 'Using network Socket'; --interconnect overrides"
                + " it) taken as the network between the hosts");
    }

    @Test
    void aTwoNodeLogGetsBothFormsAndTheReportRebuildsThem() throws IOException {
        Path log = log("2x8.txt", new TwoTierConfig(2, 8), true);
        Path json = dir.resolve("cal.json");
        assertThat(run("calibrate", log.toString(), "--intra", "NVLink4", "--inter", "IB-NDR",
                "--json", json.toString())).isEqualTo(ExitCode.OK);
        assertThat(stdout()).contains("# " + log + " (two-tier): 2x8").contains("NVLink4 b_NV 450 GB/s, hops 2")
                .contains("inter IB-NDR").contains("better form: indistinguishable");
        CalibrationFile.Entry e = CalibrationFile.read(json).dataset(log.toString());
        assertThat(e.kind()).isEqualTo("two-tier");
        assertThat(e.models()).extracting(CalibrationFile.CalibratedModel::name)
                .containsExactly("hierarchical", "flat-ring", "envelope", "algorithms");
        CalibrationFile.CalibratedModel h = e.model("hierarchical").orElseThrow();
        assertThat(h.model()).isEqualTo(new TwoTierCostModel(TwoTierForm.HIERARCHICAL, new TwoTierConfig(2, 8), 450, 2));
        // One configuration pins the latency sum and the slope: predictions match the truth wherever they were fitted.
        double m = 1L << 30;
        assertThat(h.timeUs(m)).isCloseTo(TwoTierModel.timeUs(TwoTierForm.HIERARCHICAL, new TwoTierConfig(2, 8), 450, 2,
                TRUTH, m), within(0.01 * h.timeUs(m)));
    }

    @Test
    void aJointFitOfLogsAtSeveralConfigurationsIsOneEntry() throws IOException {
        Path a = log("1x8.txt", new TwoTierConfig(1, 8), true);
        Path b = log("2x8.txt", new TwoTierConfig(2, 8), true);
        Path c = log("4x4.txt", new TwoTierConfig(4, 4), false);
        Path json = dir.resolve("joint.json");
        assertThat(run("calibrate", "--joint", a.toString(), b.toString(), c.toString(), "--intra", "NVLink4",
                "--config", c + "=16x4", "--json", json.toString())).as(this::stderr).isEqualTo(ExitCode.OK);
        CalibrationFile f = CalibrationFile.read(json);
        assertThat(f.datasets()).hasSize(1);
        CalibrationFile.Entry e = f.datasets().get(0);
        assertThat(e.kind()).isEqualTo("joint");
        double[] theta = e.model("hierarchical").orElseThrow().theta();
        assertThat(theta[0]).isCloseTo(TRUTH.uNv(), within(0.02 * TRUTH.uNv()));
        assertThat(theta[1]).isCloseTo(TRUTH.betaIbGBps(), within(0.02 * TRUTH.betaIbGBps()));
        assertThat(stdout()).contains("(joint): 1x8,2x8,4x4").containsPattern("(?m)^joint +16\\+ ");
        // every run fitted is calibrated ground for predict (and check), not only the first
        assertThat(e.configurations()).containsExactly(new TwoTierConfig(1, 8), new TwoTierConfig(2, 8),
                new TwoTierConfig(4, 4));
        assertThat(run("predict", "--calibration", json.toString(), "--model", "hierarchical", "--gpus", "16",
                "--nodes", "2", "-b", "1M", "-e", "1M")).as(last.err()).isZero();
        assertThat(last.out()).doesNotContain("lie outside what was calibrated");
        assertThat(run("predict", "--calibration", json.toString(), "--model", "hierarchical", "--gpus", "64",
                "--nodes", "8", "-b", "1M", "-e", "1M")).as(last.err()).isZero();
        assertThat(last.out()).contains("8 domains of 8 GPUs lie outside what was calibrated (1x8, 2x8, 4x4)")
                .doesNotContain("a joint fit of");
        // no configuration asked for: its largest run (the first of the 16-GPU ones, as calibrate's row shows it),
        // and the table says so
        assertThat(run("predict", "--calibration", json.toString(), "--model", "hierarchical", "-b", "1M", "-e",
                "1M")).as(last.err()).isZero();
        assertThat(last.out()).contains("# a joint fit of 1x8, 2x8, 4x4: predicted at 2x8, its largest run (as"
                + " calibrate's row shows it)");
        // the algorithm envelope is fitted on the runs across domains; moved to one domain it says its beta is not
        // NVLink's
        assertThat(e.model("algorithms")).isPresent();
        assertThat(run("predict", "--calibration", json.toString(), "--model", "algorithms", "--gpus", "8",
                "--nodes", "1", "-b", "1M", "-e", "1M")).as(last.err()).isZero();
        assertThat(last.out()).contains("one domain from a fit across domains: beta is the ring's bandwidth limited by"
                + " the slower tier");
    }

    /**
     * Above a joint calibration's largest run, predict and check use algorithms-nearest (docs/model-accuracy.md ranks
     * it first cross-scale); the summary, the JSON and predict's notes name the runs it was fitted on; --all-runs,
     * --model and a scale within the runs keep the pick on every run.
     */
    @Test
    void aboveAJointCalibrationsLargestRunTheNearestRunsPredict() {
        String nearest = "gh200_allreduce_1024gpu_256node_slingshot_alps_tunedcxi";
        List<String> args = new ArrayList<>(List.of("calibrate", "--joint", "gh200_allreduce_4gpu_1node_alps_tunedcxi",
                "gh200_allreduce_8gpu_2node_slingshot_alps_tunedcxi", "gh200_allreduce_16gpu_4node_slingshot_alps_tunedcxi",
                "gh200_allreduce_32gpu_8node_slingshot_alps_tunedcxi",
                "gh200_allreduce_64gpu_16node_slingshot_alps_tunedcxi",
                "gh200_allreduce_128gpu_32node_slingshot_alps_tunedcxi",
                "gh200_allreduce_512gpu_128node_slingshot_alps_tunedcxi", nearest));
        Path json = dir.resolve("alps.json");
        args.addAll(List.of("--json", json.toString()));
        assertThat(run(args.toArray(String[]::new))).as(this::stderr).isEqualTo(ExitCode.OK);
        assertThat(last.out()).containsPattern("(?m)^joint +1024\\+ algorithms ")
                .contains("# joint above its largest run: predict uses algorithms-nearest").contains("#   " + nearest + "\n")
                .contains("the pick (algorithms, on every run): predict --all-runs or --model algorithms");
        CalibrationFile.Entry e = CalibrationFile.read(json).datasets().get(0);
        assertThat(e.bestModel().orElseThrow().name()).isEqualTo("algorithms");
        assertThat(e.model("algorithms-nearest").orElseThrow().description()).startsWith("algorithm envelope on "
                + nearest + ", the fewest runs nearest the largest with 2k points");

        assertThat(run("predict", "--calibration", json.toString(), "--nodes", "512", "-b", "1M", "-e", "1M"))
                .as(last.err()).isZero();
        assertThat(last.out()).contains("# predicted by algorithms-nearest from calibration")
                .contains("# algorithms-nearest: algorithm envelope on " + nearest);
        assertThat(run("predict", "--calibration", json.toString(), "--nodes", "512", "--all-runs", "-b", "1M", "-e",
                "1M")).as(last.err()).isZero();
        assertThat(last.out()).contains("# predicted by algorithms from calibration");
        // within the runs the ranking says nothing: the pick
        assertThat(run("predict", "--calibration", json.toString(), "--nodes", "128", "-b", "1M", "-e", "1M"))
                .as(last.err()).isZero();
        assertThat(last.out()).contains("# predicted by algorithms from calibration");

        assertThat(run("check", "gh200_allreduce_2048gpu_512node_slingshot_alps_tunedcxi", "--calibration",
                json.toString())).as(last.err()).isNotEqualTo(ExitCode.USAGE);
        assertThat(last.out()).contains("model algorithms-nearest of joint in " + json);
    }

    @Test
    void theBundledJointGroupsAreFittedWithoutArguments() {
        assertThat(run("calibrate", "--joint")).isEqualTo(ExitCode.OK);
        assertThat(stdout()).contains("# mi325x-aac11 (joint): 1x8,2x8,4x8,8x8")
                .contains("# gb200-coreweave (joint): 1x72,2x64,20x72");
    }

    /** The summary row's flag R of a multi-domain run is in the JSON too, as a single-tier entry's is. */
    @Test
    void aRunAboveItsNetworksLineRateIsFlaggedInTheJson(@TempDir Path out) throws IOException {
        Path json = out.resolve("cal.json");
        assertThat(run("calibrate", "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk",
                "h100_allreduce_16gpu_2node_aws_p5_efa_eks", "--json", json.toString())).isEqualTo(ExitCode.OK);
        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile()).path("datasets");
        assertThat(root.get(0).path("in_network_reduction").asText())
                .startsWith("busbw 469.2 GB/s above the 400.0 GB/s the network carries for AllReduce");
        assertThat(root.get(1).path("in_network_reduction").isNull()).isTrue();
    }

    /** Real logs of two machines that share a network name: GH200 nodes of 4 and H100 nodes of 8. */
    @Test
    void aJointFitOfDifferentGpusIsRefused(@TempDir Path logs) throws IOException {
        List<String> args = new ArrayList<>(List.of("calibrate", "--joint"));
        for (String id : List.of("gh200_allreduce_8gpu_2node_slingshot_alps_tunedcxi",
                "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_gjaion")) {
            List<String> raw = Files.readAllLines(Path.of("../datasets/raw/" + id + ".txt"));
            Path f = logs.resolve(id + ".txt");
            Files.write(f, raw.subList(raw.indexOf("=== RAW (copied verbatim from the source) ===") + 1, raw.size()));
            args.add(f.toString());
        }
        // the same fabric names stated for both (their GPU names alone give a quad-GH200 board and an HGX H100)
        args.addAll(List.of("--intra", "NVLink4", "--inter", "Slingshot11"));
        assertThat(run(args.toArray(String[]::new))).isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("--joint: the runs ran different GPUs [GH200, H100]");
    }

    @Test
    void badTwoTierInputsAreUsageErrorsNamingTheFlag() throws IOException {
        Path a = log("2x8.txt", new TwoTierConfig(2, 8), true);
        assertThat(run("calibrate", "--joint", a.toString(), "--intra", "NVLink4")).isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("--joint: a joint fit needs at least two runs");
        assertThat(run("calibrate", a.toString(), "--intra", "NVLink9")).isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("--intra: unknown interconnect NVLink9");
        assertThat(run("calibrate", a.toString(), "--intra", "NVLink4", "--config", a + "=16by2"))
                .isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("--config: '16by2': expected GPUSxHOSTS");
        assertThat(run("calibrate", a.toString(), "--intra", "NVLink4", "--domain-size", "5"))
                .isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("16 GPUs do not split into domains of 5");
        assertThat(run("calibrate", a.toString(), "--intra", "IB-NDR", "--inter", "NVLink4")).isEqualTo(ExitCode.USAGE);
        assertThat(stderr()).contains("--intra: IB-NDR is a network between hosts and --inter NVLink4 a fabric inside"
                + " one: swapped? pass --intra NVLink4 --inter IB-NDR");
    }

    /** An nccl-tests 2.19.6 log of the hierarchical model at d × g, 1 KiB to 1 GiB, one host per domain. */
    private Path log(String name, TwoTierConfig c, boolean devices) throws IOException {
        List<Measurement> rows = new ArrayList<>();
        int n = c.ranks();
        double f = Collective.ALL_REDUCE.busFactor(n);
        for (long m = 1024; m <= 1L << 30; m *= 2) {
            double t = TwoTierModel.timeUs(TwoTierForm.HIERARCHICAL, c, 450, 2, TRUTH, m);
            double alg = m / (t * 1e3);
            Half h = new Half(Double.parseDouble(String.format(java.util.Locale.ROOT, "%.2f", t)), alg, alg * f, 0.0);
            rows.add(new Measurement(m, m / 4, "float", "sum", -1, h, h));
        }
        List<Device> devs = new ArrayList<>();
        if (devices) {
            for (int r = 0; r < n; r++) {
                devs.add(new Device(r, 0, 4242, "node" + (r / c.gpusPerDomain()), r % c.gpusPerDomain(),
                        String.format("0000:%02x:00", r % c.gpusPerDomain() + 16), "NVIDIA H100"));
            }
        }
        Sweep s = new Sweep(Provenance.stored(name), Collective.ALL_REDUCE, RunInfo.unknown(), Hardware.unknown(), devs,
                rows, List.of());
        StringWriter sw = new StringWriter();
        NcclTestsTableWriter.write(new PrintWriter(sw), s, List.of("# Collective test starting: all_reduce_perf"));
        Path p = dir.resolve(name);
        Files.writeString(p, sw.toString());
        return p;
    }

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

    private static String[] verbose(String[] args) {
        String[] v = java.util.Arrays.copyOf(args, args.length + 1);
        v[args.length] = "--verbose";
        return v;
    }
}
