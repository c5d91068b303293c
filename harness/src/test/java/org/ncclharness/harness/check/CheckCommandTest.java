package org.ncclharness.harness.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.format.PerIteration;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;

/** The done-means of issue 8 for {@code check}, on bundled runs and on doctored copies written by our writer. */
class CheckCommandTest {

    static final String OCI = "a100_allreduce_16gpu_2node_oci_roce";
    static final String HEALTHY = "h100_allreduce_8gpu_1node_aws_p5_batch";

    @Test
    void aHealthyBundledRunPassesAgainstItself() {
        CliRun r = CliRun.of("check", HEALTHY, "--baseline", HEALTHY);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Verdict: PASS");
    }

    /**
     * check and calibrate word a missing fabric from the same resolved facts: on a 2-host log whose GPU name gives
     * NVLink4 inside a host, only the network is missing (check said "the run states no interconnect").
     */
    @Test
    void checkAndCalibrateSayTheSameOfAMissingNetwork() {
        String log = "../calibration/src/test/resources/logs/real/twohost_h100_2x8_gcp_a3mega_tcp.txt";
        CliRun calibrate = CliRun.of("calibrate", log);
        assertThat(calibrate.exitCode()).isEqualTo(2);
        String missing = calibrate.err().lines().findFirst().orElseThrow().substring(log.length() + 2);
        assertThat(missing).startsWith("the run spans 2 hosts: inside a host NVLink4 (from the GPU name NVIDIA H100"
                + " 80GB HBM3), but the network between them is not stated");
        CliRun check = CliRun.of("check", log);
        assertThat(check.out()).as(check.err()).contains("INFO: no reference (another cluster's run): " + missing
                + "; without it no bundled run of the same hardware can be found").doesNotContain("states no");
    }

    /** Standard input is named in words where the rows say where they came from, not as a second "-". */
    @Test
    void rowsReadFromStandardInputSaySo() throws IOException {
        String log = Files.readString(Path.of("../calibration/src/test/resources/logs/real/"
                + "twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt"));
        CliRun r = CliRun.withStdin(log, "check", "-");
        assertThat(r.out()).as(r.err()).startsWith("# check: - (stored measurements: standard input)\n");
        CliRun csv = CliRun.withStdin(log, "convert", "-", "--csv", "-");
        assertThat(csv.out().lines().skip(1)).allSatisfy(row -> assertThat(row).endsWith(
                ",stored,stored measurements: standard input"));
    }

    /**
     * The figure beside a --markdown record and a report's page are derived from another option's name: a run
     * file named like them is still an input, and --force never replaces it (found by a new-user trial).
     */
    @Test
    void anOutputDerivedFromAnotherNeverReplacesTheInputEvenWithForce(@TempDir Path dir) throws IOException {
        Path log = Path.of("../calibration/src/test/resources/logs/real/twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt");
        Path png = Files.copy(log, dir.resolve("r.png"));
        CliRun figure = CliRun.of("check", png.toString(), "--markdown", dir.resolve("r.md").toString(), "--force");
        assertThat(figure.exitCode()).isEqualTo(2);
        assertThat(figure.err()).contains("r.png: is an input of this command");
        assertThat(png).hasSameTextualContentAs(log);
        assertThat(dir.resolve("r.md")).doesNotExist();
        Path page = Files.copy(log, Files.createDirectories(dir.resolve("qd")).resolve("index.html"));
        CliRun report = CliRun.of("check", page.toString(), "--report", dir.resolve("qd").toString(), "--force");
        assertThat(report.exitCode()).isEqualTo(2);
        assertThat(page).hasSameTextualContentAs(log);
    }

    /**
     * Two jobs printing into one log interleave their rows into one table: every size twice. nccl-tests prints a
     * non-zero size of one type and op once, so the table is several runs' and cannot PASS (a new-user trial got
     * PASS); the device lines, where the log has them, make it a FAIL (SEPARATE_JOBS).
     */
    @Test
    void aTableWhoseSizesComeBackIsSeveralJobsAndCannotPass(@TempDir Path dir) throws IOException {
        Path log = Path.of("../calibration/src/test/resources/logs/real/twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt");
        StringBuilder twice = new StringBuilder();
        for (String line : Files.readAllLines(log)) {
            twice.append(line).append('\n');
            if (line.matches("\\s+\\d+\\s+\\d+\\s+\\w+\\s+\\w+\\s.*")) {
                twice.append(line).append('\n');
            }
        }
        Path mixed = Files.writeString(dir.resolve("mixed.log"), twice);
        CliRun r = CliRun.of("check", mixed.toString(), "--interconnect", "EFA", "--strict");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("WARN: size 8 B (float sum) appears again in one table: several jobs printed"
                + " into one log").doesNotContain("Verdict: PASS");
        assertThat(CliRun.of("check", log.toString(), "--interconnect", "EFA").out())
                .doesNotContain("appears again");
    }

    @Test
    void theOciRunFailsMinBusBw200() {
        CliRun r = CliRun.of("check", OCI, "--min-busbw", "200");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL: average busbw").contains("Verdict: FAIL");
    }

    /**
     * Why there is no expected curve, in the user's terms: a user's file is not "this one" of the bundled runs, and a
     * GPU the device lines name but no bundled run is of is not "no GPU model".
     */
    @Test
    void noExpectedCurveSaysWhyInTheUsersTerms(@TempDir Path dir) throws IOException {
        assertThat(CliRun.of("check", OCI).out())
                .contains("no bundled all_reduce run of A100 over RoCE-100G (besides this one)");
        Path v100 = dir.resolve("p3dn.txt");
        Files.copy(Path.of("../calibration/src/test/resources/logs/real/twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt"),
                v100);
        assertThat(CliRun.of("check", v100.toString()).out())
                .contains("INFO: no reference (another cluster's run): no bundled all_reduce run of V100 over EFA")
                .doesNotContain("besides this one");
        Path renamed = dir.resolve("other-gpu.txt");
        Files.writeString(renamed, Files.readString(v100).replace("Tesla V100-SXM2-32GB", "NVIDIA RTX 6000D"));
        assertThat(CliRun.of("check", renamed.toString(), "--interconnect", "EFA").out())
                .contains("INFO: no reference (another cluster's run): no bundled run is of the run's GPU (NVIDIA RTX 6000D)");
    }

    /**
     * EFA has no fixed per-NIC figure: without a stated speed the peak is not judged, and the finding names the
     * flags; with --nic-speed and --nics-per-host it is judged against every NIC of a host (real p4d log).
     */
    @Test
    void anEfaRunIsJudgedAgainstTheNicSpeedTheUserStates() {
        String log = "../calibration/src/test/resources/logs/real/prefix_mpitag_eks_efa_p4d_interleaved_errorcol.txt";
        CliRun unstated = CliRun.of("check", log, "--interconnect", "EFA");
        assertThat(unstated.exitCode()).as(unstated.err()).isZero();
        assertThat(unstated.out()).contains("no line rate to compare with (EFA has no fixed figure: pass --nic-speed"
                + " (one NIC's, e.g. 100Gb/s) and --nics-per-host)");
        CliRun stated = CliRun.of("check", log, "--interconnect", "EFA", "--nic-speed", "100Gb/s", "--nics-per-host",
                "4");
        assertThat(stated.exitCode()).as(stated.err()).isZero();
        assertThat(stated.out()).contains("busbw at the largest size (4 GiB): 43.81 GB/s = 87.6 % of the line rate"
                + " of 4 EFA NICs per host at 12.5 GB/s (50 GB/s)");
        // a p5 log at NCCL_DEBUG=INFO: aws-ofi-nccl found 32 NICs, so only the speed is asked for, and what NCCL
        // used is said beside the verdict
        CliRun p5 = CliRun.of("check", "../calibration/src/test/resources/logs/real/"
                + "prefix_mpitag_midline_h100_p5_efa_2x8_keitaw.txt");
        assertThat(p5.exitCode()).as(p5.err()).isZero();
        assertThat(p5.out()).contains("(EFA has no fixed figure: pass --nic-speed (one NIC's, e.g. 100Gb/s))")
                .contains("INFO: NCCL used (its INFO lines): inside a host P2P/CUMEM (448); between hosts NET/AWS"
                        + " Libfabric/GDRDMA (512), GPUDirect RDMA on; NVLS in use");
        CliRun p5Line = CliRun.of("check", "../calibration/src/test/resources/logs/real/"
                + "prefix_mpitag_midline_h100_p5_efa_2x8_keitaw.txt", "--nic-speed", "100Gb/s");
        assertThat(p5Line.out()).contains("487.9 GB/s = 122.0 % of the line rate of 32 EFA NICs per host at 12.5 GB/s"
                + " (400 GB/s); above the line rate: a tree or an in-network reduction");
        CliRun zero = CliRun.of("check", log, "--interconnect", "EFA", "--nic-speed", "0Gb/s");
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).contains("Invalid value for option '--nic-speed': '0Gb/s' is not a bandwidth above 0");
    }

    /**
     * A real table whose collective the rows cannot tell (every busbw 0.00) is refused, and the refusal says that
     * nccl-tests' data check failed on its rows (NVIDIA/nccl-tests#179); with --collective it FAILs on #wrong.
     */
    @Test
    void aTableRefusedForItsCollectiveSaysItsRowsFailedTheDataCheck() {
        String log = "../calibration/src/test/resources/logs/real/ncclinfo_wrong_2x2_ring_nccltests179_excerpt.txt";
        CliRun unknown = CliRun.of("check", log);
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("fit all_reduce/sendrecv; 5 of its 5 rows report #wrong > 0: nccl-tests'"
                + " data check failed, so the results are corrupt whatever the collective").contains("--collective NAME")
                .doesNotContain("--gpus N");
        CliRun named = CliRun.of("check", log, "--collective", "all_reduce");
        assertThat(named.exitCode()).as(named.err()).isEqualTo(1);
        assertThat(named.out()).contains("Verdict: FAIL");
    }

    /**
     * A run of one size (a real Open MPI --timestamp-output log cut after its first row, NVIDIA/nccl#1368) gives no
     * curve: its busbw is not judged against the line rate, which a latency-bound 1 MiB on 40 GPUs would fail.
     */
    @Test
    void aSingleSizeIsNotJudgedAgainstTheLineRate() {
        String log = "../calibration/src/test/resources/logs/real/prefix_ompi_timestamp_h100_5x8_roce_ring_nccl1368.txt";
        CliRun r = CliRun.of("check", log, "--interconnect", "RoCE-400G", "--nics-per-host", "4");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("busbw at the largest size (1 MiB): 5.76 GB/s; the run gives no curve")
                .contains("the bandwidth is not judged").doesNotContain("% of the line rate");
    }

    /**
     * A real 1024-rank log (nccl-tests#322) whose ranks fail with 'Test NCCL failure' after the last row: check
     * fails it whatever the numbers say, and takes the maxBytes nccl-tests lowered for memory as the sweep's end.
     */
    @Test
    void aRunWhoseRanksFailedFailsAndItsLoweredMaxBytesIsTheEnd() {
        String log = "../calibration/src/test/resources/logs/real/failed_h100_1024rank_listcut_reducedmaxbytes_issue322.txt";
        CliRun r = CliRun.of("check", log);
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL: diagnosis TEST_FAILED: nccl-tests reported")
                .contains("Test NCCL failure common.cu:1204").doesNotContain("it was started for (maxBytes)");
    }

    /**
     * Two real runs of the same two DGX Spark before and after a re-cabled link: with the NICs stated and no
     * baseline, the healthy one PASSes at 88.6 % of the line rate and the degraded one, at 11.3 %, FAILs.
     */
    @Test
    void aLinkRunningAtAFractionOfItsLineRateFailsWithoutABaseline() {
        String dir = "../calibration/src/test/resources/logs/real/pair_gb10_allgather_2x1_roce200_";
        CliRun healthy = CliRun.of("check", dir + "healthy_dgxspark.txt", "--interconnect", "RoCE-200G",
                "--nics-per-host", "1");
        assertThat(healthy.exitCode()).as(healthy.out()).isZero();
        assertThat(healthy.out()).contains("88.6 % of the line rate").contains("Verdict: PASS");
        CliRun degraded = CliRun.of("check", dir + "degraded_dgxspark.txt", "--interconnect", "RoCE-200G",
                "--nics-per-host", "1");
        assertThat(degraded.exitCode()).as(degraded.out()).isEqualTo(1);
        assertThat(degraded.out()).contains("FAIL: busbw at the largest size (4 GiB): 2.82 GB/s = 11.3 % of the line"
                + " rate").contains("is a fault, not tuning");
        // a --fail-below the user types holds against the line rate too: 88.6 % fails a gate of 90
        CliRun strict = CliRun.of("check", dir + "healthy_dgxspark.txt", "--interconnect", "RoCE-200G",
                "--nics-per-host", "1", "--fail-below", "90", "--warn-below", "95");
        assertThat(strict.exitCode()).as(strict.out()).isEqualTo(1);
        assertThat(strict.out()).contains("88.6 % of the line rate").contains("below --fail-below 90 % of the line rate");
        // against the healthy run, 1 GiB of a sweep that starts there is judged on busbw, not as latency
        CliRun vsHealthy = CliRun.of("check", dir + "degraded_dgxspark.txt", "--baseline", dir + "healthy_dgxspark.txt");
        assertThat(vsHealthy.exitCode()).isEqualTo(1);
        assertThat(vsHealthy.out()).contains("1 GiB–4 GiB: busbw 2.8–2.82 GB/s is 12.7–14.2 % of the reference (baseline")
                .doesNotContain("latency");
    }

    /** One rank communicates with nobody: check says so, and calibrate refuses before asking for a fabric. */
    @Test
    void aSingleRankIsNamedAsTheReasonNothingWasTested() {
        String log = "../calibration/src/test/resources/logs/real/onerank_a10g_1gpu_busbw0_awsbatch_errorcol.txt";
        CliRun check = CliRun.of("check", log);
        assertThat(check.out()).contains("one rank (N = 1) communicates with nobody").contains("Verdict: WARN");
        CliRun calibrate = CliRun.of("calibrate", log);
        assertThat(calibrate.exitCode()).isEqualTo(2);
        assertThat(calibrate.err()).contains("one rank (N = 1) communicates with nobody")
                .doesNotContain("--interconnect");
    }

    /**
     * A log with no table whose ranks failed (nccl-tests#294: every rank of one host in bootstrap) is a failed run,
     * FAIL with exit 1, not an input error; a log with no table and no failure stays exit 2.
     */
    @Test
    void aRunThatFailedBeforeItsFirstSizeFailsRatherThanBeingBadInput(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        List<String> all = Files.readAllLines(Path.of("../calibration/src/test/resources/logs/ncclinfo/"
                + "test_failed_bootstrap_af_family_h100_2x8_nccltests294.txt"));
        Path log = dir.resolve("294.log");
        Files.write(log, all.subList(all.indexOf("=== RAW") + 1, all.indexOf("=== END RAW")));
        CliRun r = CliRun.of("check", log.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL: no result table: the run stopped before its first size")
                .contains("FAIL: diagnosis TEST_FAILED: nccl-tests reported 8 failure lines, all on h100-4");
        Path empty = dir.resolve("prose.txt");
        Files.writeString(empty, "nothing here\n");
        assertThat(CliRun.of("check", empty.toString()).exitCode()).isEqualTo(2);
    }

    /**
     * The run that most needs a ticket gets one: a failed run with no result table (two real excerpts, as the user
     * gives them) writes its --markdown record, to a file or standard output, and its --report page, with the FAIL
     * reasons and the run's context, and says there is no figure; before, FAIL and exit 1 came with nothing written.
     */
    @Test
    void aRunThatFailedBeforeItsFirstSizeGetsItsRecordAndPage(@TempDir Path dir) throws IOException {
        String logs = "../calibration/src/test/resources/logs/ncclinfo/";
        String ib = logs + "ib_completion_error4_vendor81_h100_5node_issue928.txt";
        Path md = dir.resolve("tk.md");
        CliRun file = CliRun.of("check", ib, "--markdown", md.toString());
        assertThat(file.exitCode()).as(file.err()).isEqualTo(ExitCode.FAIL);
        assertThat(file.out()).contains("Verdict: FAIL (3 reasons)").contains("# report written to " + md);
        String record = Files.readString(md);
        assertThat(record).startsWith("# Bring-up check: " + ib + "\n\n**Verdict: FAIL** (3 reasons)")
                .contains("- **FAIL** no result table: the run stopped before its first size, and its lines say why")
                .contains("- **FAIL** diagnosis IB_COMPLETION_ERROR: an IB work request failed with IBV_WC_LOC_PROT_ERR")
                .contains("- **FAIL** diagnosis NCCL_ERROR: NCCL returned ncclRemoteError (6)")
                .contains("| measurements | a stored log with no result table: " + ib)
                .contains("## Figure\n\nNo figure: the run has no point to draw.")
                .doesNotContain("## Per size");
        assertThat(dir.resolve("tk.png")).doesNotExist();
        CliRun stdout = CliRun.of("check", ib, "--markdown", "-");
        assertThat(stdout.exitCode()).isEqualTo(ExitCode.FAIL);
        assertThat(stdout.out()).isEqualTo(record);
        assertThat(stdout.err()).contains("Verdict: FAIL (3 reasons)");

        String bootstrap = logs + "test_failed_bootstrap_af_family_h100_2x8_nccltests294.txt";
        Path site = dir.resolve("rep");
        CliRun page = CliRun.of("check", bootstrap, "--report", site.toString());
        assertThat(page.exitCode()).as(page.err()).isEqualTo(ExitCode.FAIL);
        assertThat(page.out()).contains("# page written to " + site.resolve("index.html"));
        assertThat(Files.readString(site.resolve("index.html")))
                .contains("<span class=\"level\">FAIL</span><b>no-table</b>: no result table")
                .contains("<b>run-failed</b>: diagnosis TEST_FAILED")
                .contains("NCCL_IB_MERGE_VFS=0")
                .doesNotContain("<img ");
    }

    /**
     * A GB/s threshold is a finite rate above 0: NaN and -5 used to pass ("meets 0.9 x nan = nan GB/s"), and so
     * would 0; one line, exit 2, nothing judged.
     */
    @Test
    void aBandwidthThresholdIsAFiniteRateAboveZero() {
        for (String option : new String[] {"--min-busbw", "--expect-busbw"}) {
            for (String bad : new String[] {"NaN", "-5", "0", "Infinity", "1e999", "-1GB/s", "NaNGB/s"}) {
                CliRun r = CliRun.of("check", OCI, option, bad);
                assertThat(r.exitCode()).as(option + " " + bad).isEqualTo(ExitCode.USAGE);
                assertThat(r.out()).as(option + " " + bad).isEmpty();
                assertThat(r.err().lines().findFirst().orElse("")).as(option + " " + bad)
                        .startsWith("Invalid value for option '" + option + "': '" + bad + "' is not a bandwidth");
            }
        }
        assertThat(CliRun.of("check", OCI, "--min-busbw", "20").out()).contains("meets 0.9 x 20 = 18 GB/s");
        assertThat(CliRun.of("check", OCI, "--min-busbw", "160Gb/s").out()).contains("meets 0.9 x 20 = 18 GB/s");
    }

    /**
     * A baseline that is a replay (the folder bringup --replay writes) or a prediction says nothing of the system
     * being checked: agreeing with it is at least WARN, and the report says why; before, the replay gave PASS.
     */
    @Test
    void aBaselineThatWasNotMeasuredMakesTheVerdictAtLeastWarn(@TempDir Path dir) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeFalse(org.ncclharness.gpu.Gpus.probe().ok(),
                "a GPU is present: bringup measures rather than replays");
        Path day1 = dir.resolve("day1");
        CliRun bringup = CliRun.of("bringup", "--replay", "--dataset", OCI, "-o", day1.toString());
        assertThat(bringup.exitCode()).as(bringup.err()).isZero();
        CliRun r = CliRun.of("check", OCI, "--baseline", day1.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("WARN: the reference (baseline) is a replay: another machine's stored measurements, shown"
                + " where no GPU was; agreeing with it says nothing of this system, so the verdict is at least WARN")
                .contains("Verdict: WARN (1 reason)");
        // the bundled run itself as the baseline is a measurement: no such finding
        assertThat(CliRun.of("check", OCI, "--baseline", OCI).out()).contains("Verdict: PASS")
                .doesNotContain("the reference (baseline) is a");

        Path predicted = dir.resolve("p.txt");
        CliRun predict = CliRun.of("predict", "--dataset", HEALTHY, "-b", "1K", "-e", "1G");
        assertThat(predict.exitCode()).as(predict.err()).isZero();
        Files.writeString(predicted, predict.out());
        CliRun against = CliRun.of("check", HEALTHY, "--baseline", predicted.toString());
        assertThat(against.exitCode()).as(against.err()).isZero();
        assertThat(against.out()).contains("# reference (baseline): PREDICTION (not a measurement) of ")
                .contains("WARN: the reference (baseline) is a prediction: a model's curve, not a measurement; agreeing with it"
                        + " says nothing of this system")
                .doesNotContain("Verdict: PASS");
    }

    /**
     * JSON that holds no run says what it is: an empty "results" array is empty (not missing), and a calibration
     * report given as the run points to --calibration, for check and calibrate alike.
     */
    @Test
    void aJsonThatHoldsNoRunSaysWhatItIs(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("e.json"), "{\"results\":[]}\n");
        CliRun r = CliRun.of("check", empty.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).isEqualTo(empty + ": the \"results\" array is empty: the run wrote no size (it stopped"
                + " before its first one, or the file was cut); its log's NCCL lines may say why\n");
        Path cal = dir.resolve("cal.json");
        assertThat(CliRun.of("calibrate", HEALTHY, "--json", cal.toString()).exitCode()).isZero();
        for (String command : new String[] {"check", "calibrate"}) {
            CliRun report = CliRun.of(command, cal.toString());
            assertThat(report.exitCode()).as(command).isEqualTo(ExitCode.USAGE);
            assertThat(report.err()).as(command).startsWith(cal + ": is a calibration report (calibrate's JSON:"
                    + " models, not measurements), not a run: give it as --calibration FILE");
        }
    }

    /** calibrate's two-tier flags work for check too, and clash with --interconnect as they do there. */
    @Test
    void calibratesTierFlagsNameTheRunsTiers() {
        String log = "../calibration/src/test/resources/logs/real/twohost_b200_2x8_dstack_lambda_nohash.txt";
        CliRun r = CliRun.of("check", log, "--intra", "NVLink5", "--inter", "IB-NDR", "--nodes", "2");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("IB-NDR is 50 GB/s per NIC").doesNotContain("SHARP");
        CliRun clash = CliRun.of("check", log, "--intra", "NVLink5", "--interconnect", "EFA", "--nodes", "2");
        assertThat(clash.exitCode()).isEqualTo(2);
        assertThat(clash.err()).contains("give --interconnect for one tier, or --intra/--inter for two");
    }

    @Test
    void theOciRunWarnsOnItsTwoDips() {
        CliRun r = CliRun.of("check", OCI);
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("WARN: dip at 16 MiB").contains("WARN: dip at 64 MiB").contains("Verdict: WARN");
        assertThat(r.out().lines().filter(l -> l.startsWith("WARN: dip"))).hasSize(2);
    }

    @Test
    void halfTheBandwidthAtTheLargestSizeFailsAgainstTheHealthyBaseline(@TempDir Path dir) throws IOException {
        Sweep healthy = DatasetCatalog.bundled().get(HEALTHY).sweep();
        Path copy = write(dir.resolve("largest-halved.json"), scaled(healthy, healthy.rows().size() - 1, 0.5));
        CliRun r = CliRun.of("check", copy.toString(), "--baseline", HEALTHY);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL: largest common size 16 GiB").contains("50.0 % of the reference (baseline");
    }

    @Test
    void aBringupDirectoryIsItsBaselineJson(@TempDir Path dir) throws IOException {
        Sweep healthy = DatasetCatalog.bundled().get(HEALTHY).sweep();
        Path bringup = Files.createDirectory(dir.resolve("bringup"));
        write(bringup.resolve("baseline.json"), healthy);
        Path copy = write(dir.resolve("largest-halved.json"), scaled(healthy, healthy.rows().size() - 1, 0.5));
        CliRun r = CliRun.of("check", copy.toString(), "--baseline", bringup.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("50.0 % of the reference (baseline");

        Path empty = Files.createDirectory(dir.resolve("empty"));
        CliRun refused = CliRun.of("check", copy.toString(), "--baseline", empty.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().strip()).isEqualTo(empty + ": is a directory without baseline.json: give the"
                + " directory of a bring-up that reached step 4, or a run file");
    }

    @Test
    void halfTheBandwidthAtTheMiddleSizeWarns(@TempDir Path dir) throws IOException {
        Sweep healthy = DatasetCatalog.bundled().get(HEALTHY).sweep();
        int middle = healthy.rows().size() / 2;
        Path copy = write(dir.resolve("middle-halved.json"), scaled(healthy, middle, 0.5));
        CliRun r = CliRun.of("check", copy.toString(), "--baseline", HEALTHY);
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Verdict: WARN").contains("WARN: " + sizeText(healthy.rows().get(middle)));
        assertThat(r.out()).doesNotContain("FAIL");
    }

    @Test
    void aPredictionIsRefusedNotJudged(@TempDir Path dir) throws IOException {
        CliRun p = CliRun.of("predict", "-b", "1K", "-e", "1G", "-f", "4", "--gpus", "8", "--bandwidth", "25GB/s",
                "--step-latency", "10us");
        assertThat(p.exitCode()).isZero();
        Path table = Files.writeString(dir.resolve("predicted.txt"), p.out());
        CliRun r = CliRun.of("check", table.toString());
        assertThat(r.exitCode()).isEqualTo(org.ncclharness.harness.exit.ExitCode.USAGE);
        assertThat(r.err()).contains("this is a prediction, not a measurement");
    }

    /**
     * More reference data never makes a verdict more lenient: the real nccl-tests#319 excerpt (2 hosts x 8 H100,
     * 44 GB/s busbw, 11 % of 8 x 50 GB/s) FAILs on the line rate with a bundled H100 curve as its reference, as it
     * does when its GPU is renamed so that no bundled curve exists (where it FAILed before the curve was a WARN).
     */
    @Test
    void theLineRateFaultFailsWhetherOrNotABundledCurveOfTheGpuExists(@TempDir Path dir) throws IOException {
        Path real = Path.of("../calibration/src/test/resources/logs/ncclinfo/"
                + "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt");
        String fault = "FAIL: busbw at the largest size (16 GiB): 44.27 GB/s = 11.1 % of the line rate of 8 IB-NDR NICs"
                + " per host at 50 GB/s (400 GB/s); below 25 % of the line rate across hosts is a fault, not tuning";
        CliRun withCurve = CliRun.of("check", real.toString(), "--interconnect", "IB-NDR", "--nics-per-host", "8");
        assertThat(withCurve.exitCode()).as(withCurve.err()).isEqualTo(org.ncclharness.harness.exit.ExitCode.FAIL);
        assertThat(withCurve.out()).contains("# reference (another cluster's run): bundled dataset h100_allreduce_16gpu_2node")
                .contains(fault).contains("Verdict: FAIL");
        Path renamed = Files.writeString(dir.resolve("renamed.txt"), Files.readString(real)
                .replace("NVIDIA H100 80GB HBM3", "NVIDIA Z999 80GB HBM3"));
        CliRun withoutCurve = CliRun.of("check", renamed.toString(), "--interconnect", "IB-NDR", "--nics-per-host",
                "8");
        assertThat(withoutCurve.exitCode()).as(withoutCurve.err()).isEqualTo(org.ncclharness.harness.exit.ExitCode.FAIL);
        assertThat(withoutCurve.out()).contains("INFO: no reference (another cluster's run): no bundled all_reduce run of Z999 over"
                + " IB-NDR").contains(fault).contains("Verdict: FAIL");
    }

    @Test
    void noSizeInCommonIsExitTwo(@TempDir Path dir) throws IOException {
        Sweep healthy = DatasetCatalog.bundled().get(HEALTHY).sweep();
        Path small = write(dir.resolve("small.json"), healthy.withRows(healthy.rows().subList(0, 3)));
        CliRun r = CliRun.of("check", small.toString(), "--baseline", OCI + "x");
        assertThat(r.exitCode()).isEqualTo(2);
        Path large = write(dir.resolve("large.json"), healthy.withRows(healthy.rows().subList(10, 13)));
        CliRun none = CliRun.of("check", small.toString(), "--baseline", large.toString());
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("no size in common");
    }

    @Test
    void markdownIsWrittenOnceAndNotOverwrittenWithoutForce(@TempDir Path dir) throws IOException {
        Path md = dir.resolve("bringup.md");
        assertThat(CliRun.of("check", OCI, "--markdown", md.toString()).exitCode()).isZero();
        assertThat(Files.readString(md)).startsWith("# Bring-up check: " + OCI).contains("**Verdict: WARN**")
                .containsPattern("\\| 16777216 \\| 33.41 \\|.*\\| dip \\|")
                // the ticket stands alone: the run, and the figure beside it
                .contains("## Run").contains("| GPUs | 16 x NVIDIA A100").contains("| NCCL_* environment |")
                .contains("| command line | ").contains("![busbw per size](bringup.png)");
        assertThat(Files.readAllBytes(dir.resolve("bringup.png"))).startsWith(0x89, 'P', 'N', 'G');
        CliRun again = CliRun.of("check", OCI, "--markdown", md.toString());
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("--force");
    }

    @Test
    void aMarkdownRecordOnStandardOutputLinksTheFigureOnlyWhereFigureOrReportPutIt(@TempDir Path dir)
            throws IOException {
        // alone: the record is stdout, the text report stderr, and the record says no figure was written
        CliRun alone = CliRun.of("check", OCI, "--markdown", "-");
        assertThat(alone.exitCode()).as(alone.err()).isZero();
        assertThat(alone.out()).startsWith("# Bring-up check: " + OCI).contains("\n## Figure\n\nNo figure was"
                + " written: with the record on standard output (--markdown -) the figure goes only where --figure"
                + " FILE or --report DIR says.\n").doesNotContain("![");
        assertThat(alone.err()).contains("Verdict: WARN").doesNotContain("written to");
        // --figure: the PNG there, and the record links it as given
        Path png = dir.resolve("fig.png");
        CliRun figure = CliRun.of("check", OCI, "--markdown", "-", "--figure", png.toString());
        assertThat(figure.exitCode()).as(figure.err()).isZero();
        assertThat(figure.out()).contains("![busbw per size](" + png + ")");
        assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');
        assertThat(figure.err()).contains("# figure written to " + png);
        // --report DIR: the page's own figure
        Path site = dir.resolve("site");
        CliRun page = CliRun.of("check", OCI, "--markdown", "-", "--report", site.toString());
        assertThat(page.exitCode()).as(page.err()).isZero();
        assertThat(page.out()).contains("![busbw per size](" + site.resolve(OCI + ".png") + ")");
        assertThat(site.resolve(OCI + ".png")).isRegularFile();
        // a record in a file links a --figure elsewhere by its path from the record's folder
        Path md = Files.createDirectories(dir.resolve("tickets")).resolve("t.md");
        Path other = dir.resolve("other.png");
        assertThat(CliRun.of("check", OCI, "--markdown", md.toString(), "--figure", other.toString()).exitCode())
                .isZero();
        assertThat(Files.readString(md)).contains("![busbw per size](../other.png)");
        assertThat(dir.resolve("tickets/t.png")).doesNotExist();
        // a figure is a PNG
        CliRun svg = CliRun.of("check", OCI, "--figure", dir.resolve("f.svg").toString());
        assertThat(svg.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(svg.err().strip()).isEqualTo(dir.resolve("f.svg") + ": check draws its figure as PNG: name the"
                + " file .png");
    }

    @Test
    void aFailedMarkdownOrFigureLeavesStandardOutputEmpty(@TempDir Path dir) throws IOException {
        Path png = Files.writeString(dir.resolve("fig.png"), "mine");
        CliRun r = CliRun.of("check", OCI, "--markdown", "-", "--figure", png.toString());
        assertThat(r.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("already exists; pass --force");
        assertThat(Files.readString(png)).isEqualTo("mine");
    }

    @Test
    void aLogWithoutMetadataTakesItFromTheFlags(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("run.txt");
        Files.copy(Path.of("../datasets/raw/" + OCI + ".txt"), log);
        CliRun r = CliRun.of("check", log.toString(), "--nodes", "2", "--interconnect", "RoCE-100G");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("RoCE-100G is 12.5 GB/s per NIC and the NICs per host are not known")
                .contains("WARN: dip at 64 MiB");
        // the NICs from the log's own NCCL INFO line
        Path withNics = dir.resolve("with-nics.txt");
        StringBuilder using = new StringBuilder("node1:100:100 [0] NCCL INFO NET/IB : Using");
        for (int i = 0; i < 16; i++) {
            using.append(" [").append(i).append("]mlx5_").append(i).append(":1/RoCE");
        }
        Files.writeString(withNics, using + " [RO]; OOB eth0:10.0.0.1<0>\n" + Files.readString(log));
        CliRun n = CliRun.of("check", withNics.toString(), "--nodes", "2", "--interconnect", "RoCE-100G");
        assertThat(n.out()).contains("= 35.8 % of the line rate of 16 RoCE-100G NICs per host at 12.5 GB/s (200 GB/s); a healthy"
                + " run reaches 80 % or more");
        CliRun bad = CliRun.of("check", log.toString(), "--interconnect", "Carrier-Pigeon");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("--interconnect: unknown interconnect Carrier-Pigeon; known: NVLink");
    }

    @Test
    void aCalibratedModelIsAReferenceLabelledAsAPrediction(@TempDir Path dir) {
        Path cal = dir.resolve("cal.json");
        CliRun c = CliRun.of("calibrate", "../datasets/" + HEALTHY + ".csv", "--gpus", "8", "--interconnect", "NVLink4",
                "--json", cal.toString());
        assertThat(c.exitCode()).as(c.err()).isZero();
        CliRun r = CliRun.of("check", HEALTHY, "--calibration", cal.toString());
        assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
        assertThat(r.out()).contains("# reference (calibration): PREDICTION (not a measurement) of model envelope of")
                .contains("evaluated at the run's N = 8 on 1 host").contains("a prediction (not a measurement)");
        // a calibration of another collective is not comparable
        CliRun other = CliRun.of("check", "v100_allgather_12gpu_1node_nvlink2_dgx2_wohlbier", "--calibration",
                cal.toString());
        assertThat(other.exitCode()).isEqualTo(2);
        assertThat(other.err()).contains("are not comparable: collective all_gather vs all_reduce;"
                + " --allow-mismatch compares them anyway");
    }

    @Test
    void aBaselineOfAnotherScaleOrGpuIsRefusedUnlessAllowedAndThenSaidFirst() {
        String run32 = "h100_allreduce_32gpu_4node_ib_ndr_ncclTests309_gjaion";
        String base16 = "h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_gjaion";
        CliRun refused = CliRun.of("check", run32, "--baseline", base16);
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().strip()).isEqualTo(run32 + " (all_reduce float, 32 GPUs on 4 hosts, H100) and baseline "
                + base16 + " (all_reduce float, 16 GPUs on 2 hosts, H100) are not comparable: GPUs 32 vs 16, hosts 4"
                + " vs 2; --allow-mismatch compares them anyway");
        CliRun allowed = CliRun.of("check", run32, "--baseline", base16, "--allow-mismatch");
        assertThat(allowed.exitCode()).as(allowed.err()).isIn(0, 1);
        assertThat(allowed.out().lines().toList().subList(1, 3)).anyMatch(l -> l.equals("# NOT COMPARABLE"
                + " (--allow-mismatch): GPUs 32 vs 16, hosts 4 vs 2"));
        CliRun gpu = CliRun.of("check", "a100_allreduce_16gpu_2node_ib_azureml_ndv4_jzazure", "--baseline",
                "h100_allreduce_16gpu_2node_ib_nebius_k8s_skypilot");
        assertThat(gpu.err()).contains("are not comparable: GPU A100 vs H100");
    }

    @Test
    void withoutABaselineTheExpectedPeakOrTheNearestBundledRunOfTheSameHardwareIsTheReference() {
        CliRun low = CliRun.of("check", OCI, "--expect-busbw", "180");
        assertThat(low.exitCode()).isEqualTo(1);
        assertThat(low.out()).contains("FAIL: largest size 8 GiB: busbw 71.56 GB/s is 39.8 % of the expected 180 GB/s"
                + " (--expect-busbw), below 75 %");
        CliRun both = CliRun.of("check", OCI, "--expect-busbw", "180", "--baseline", OCI);
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("--expect-busbw and --baseline contradict");
        CliRun peer = CliRun.of("check", "h100_allreduce_8gpu_azure_ndv5");
        assertThat(peer.out()).contains("# reference (another cluster's run): bundled dataset h100_allreduce_8gpu_1node_")
                .doesNotContain("bundled dataset h100_allreduce_8gpu_azure_ndv5 (");
    }

    @Test
    void aOneTierCalibrationOfOneHostIsRefusedForATwoHostRunAndUnitsAreRead(@TempDir Path dir) {
        Path cal = dir.resolve("one.json");
        assertThat(CliRun.of("calibrate", "h100_allreduce_8gpu_azure_ndv5", "--json", cal.toString()).exitCode())
                .isZero();
        CliRun r = CliRun.of("check", "h100_allreduce_16gpu_2node_aws_p5_efa_slurm", "--calibration", cal.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("hosts 2 vs 1 (model envelope is one tier: it has no term for another tier)");
        CliRun units = CliRun.of("check", OCI, "--expect-busbw", "180GB/s");
        assertThat(units.out()).contains("of the expected 180 GB/s");
    }

    /** The verbatim log of a bundled raw file (after its metadata header), as a user's own file. */
    private static Path rawLog(Path dir, String id) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("../datasets/raw/" + id + ".txt"));
        Path log = dir.resolve(id + ".log");
        Files.write(log, lines.subList(lines.indexOf("=== RAW (copied verbatim from the source) ===") + 1,
                lines.size()));
        return log;
    }

    /**
     * A calibration of a real 2-host log that names neither its GPU nor its hosts (AWS p5 over EFA): the same log
     * is judged across 2 hosts as its calibration ran, not against NVLink inside one; a 1-GPU-per-host run is
     * refused by its one-tier pick; another run is told the calibration's GPU is not known.
     */
    @Test
    void aCalibrationFromARawLogLendsItsHostsAndRefusesAnotherShapeOfHost(@TempDir Path dir) throws IOException {
        Path p5 = rawLog(dir, "h100_allreduce_16gpu_2node_aws_p5_efa_slurm");
        Path cal = dir.resolve("efa.json");
        CliRun c = CliRun.of("calibrate", p5.toString(), "--intra", "NVLink4", "--inter", "EFA", "--nodes", "2",
                "--json", cal.toString());
        assertThat(c.exitCode()).as(c.err()).isZero();
        CliRun same = CliRun.of("check", p5.toString(), "--calibration", cal.toString(), "--model", "envelope");
        assertThat(same.out()).contains("INFO: the run does not state its hosts: taken as the 2 hosts its calibration"
                + " entry " + p5 + " ran at the same 16 GPUs").contains("evaluated at the run's N = 16 on 2 hosts")
                .doesNotContain("line rate of NVLink4");
        CliRun onePerHost = CliRun.of("check", rawLog(dir, "h200_allreduce_2gpu_2node_roce_1nic_gke_dranet").toString(),
                "--calibration", cal.toString(), "--model", "envelope");
        assertThat(onePerHost.exitCode()).isEqualTo(2);
        assertThat(onePerHost.err()).contains("GPUs per host 1 vs 8 (model envelope is one tier: it has no term for"
                + " another tier)");
        CliRun other = CliRun.of("check", OCI, "--calibration", cal.toString(), "--model", "envelope");
        assertThat(other.out()).contains("does not state its GPU: that it is this run's A100 is not checked");
        CliRun nodes = CliRun.of("predict", "--calibration", cal.toString(), "--model", "envelope", "--nodes", "4",
                "--bytes", "1G");
        assertThat(nodes.exitCode()).isEqualTo(2);
        assertThat(nodes.err()).contains("model envelope has one tier: it has no term for the network that 4 nodes"
                + " instead of 2 change");
    }

    /**
     * A real one-host log cut after its 256 KiB row, as a killed run leaves it: it FAILs (exit 1) saying that the run
     * did not finish, and its expected curve is never the bundled copy of the same run.
     */
    @Test
    void aRunCutShortIsToldSoAndNotComparedWithItsOwnBundledCopy(@TempDir Path dir) throws IOException {
        Path whole = rawLog(dir, "a100_allreduce_8gpu_oci_bmgpu48");
        List<String> lines = Files.readAllLines(whole);
        int cut = lines.indexOf(lines.stream().filter(l -> l.strip().startsWith("262144 ")).findFirst().orElseThrow());
        Path log = dir.resolve("cut.log");
        Files.write(log, lines.subList(0, cut + 1));
        CliRun r = CliRun.of("check", log.toString());
        assertThat(r.out()).contains("FAIL: the sweep stops at 256 KiB of the 10 GiB it was started for (maxBytes)")
                .doesNotContain("bundled dataset a100_allreduce_8gpu_oci_bmgpu48 (");
        assertThat(r.exitCode()).isEqualTo(1);
    }

    /**
     * A real log with a rank's failure printed into a row (the row cannot be read): check says FAIL (exit 1) with
     * the failure line, as diagnose says TEST_FAILED, not a damaged row (exit 2); a WARN exits 1 with --strict.
     */
    @Test
    void aFailurePrintedIntoARowFailsAsDiagnoseSaysAndStrictFailsAWarn(@TempDir Path dir) throws IOException {
        Path whole = rawLog(dir, "a100_allreduce_8gpu_oci_bmgpu48");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(whole));
        int row = lines.indexOf(lines.stream().filter(l -> l.strip().startsWith("262144 ")).findFirst().orElseThrow());
        String l = lines.get(row);
        lines.set(row, l.substring(0, 60) + "node1: Test NCCL failure common.cu:1204 'unhandled cuda error'");
        lines.add(row + 1, l.substring(60));
        Path log = dir.resolve("broken.log");
        Files.write(log, lines);
        CliRun r = CliRun.of("check", log.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL: the result table cannot be read (").contains("FAIL: diagnosis TEST_FAILED:")
                .contains("Test NCCL failure common.cu:1204");
        assertThat(CliRun.of("diagnose", log.toString()).exitCode()).isEqualTo(1);
        // 35.8 % of its NICs' line rate: a WARN, within its family's healthy range
        CliRun warn = CliRun.of("check", "a100_allreduce_16gpu_2node_oci_roce");
        assertThat(warn.out()).contains("Verdict: WARN");
        assertThat(warn.exitCode()).isZero();
        assertThat(CliRun.of("check", "a100_allreduce_16gpu_2node_oci_roce", "--strict").exitCode()).isEqualTo(1);
        assertThat(CliRun.of("check", HEALTHY, "--strict").exitCode()).as("PASS").isZero();
    }

    // --- per-iteration: synthetic samples, labelled as test data, written by our own JSON writer ---

    @Test
    void perIterationFindsTheSlowHostTheSpikeAndTheFirstIteration(@TempDir Path dir) throws IOException {
        Path json = write(dir.resolve("per-iter.json"), syntheticSweep(), syntheticSamples());
        CliRun r = CliRun.of("check", json.toString(), "--per-iteration");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("slowest process 3 on nodeb").contains("WARN: 1 MiB out-of-place: slowest process 3");
        assertThat(r.out()).contains("2 of 10 iterations slower than 2 x the median 13 us: #0 39 us, #6 40 us");
        assertThat(r.out()).contains("first iteration 39 us = 3.00 x the median of the rest");
        assertThat(r.out()).contains("per-host spread").contains("slowest nodeb");
        assertThat(r.out()).contains("Verdict: WARN");
        assertThat(CliRun.of("check", HEALTHY, "--per-iteration").exitCode()).isEqualTo(2);
    }

    static Sweep syntheticSweep() {
        Measurement m = new Measurement(1 << 20, 1 << 18, "float", "sum", -1, new Half(10.0, 104.86, 157.29, 0.0),
                new Half(10.0, 104.86, 157.29, 0.0));
        List<Device> devices = List.of(new Device(0, 0, 100, "nodea", 0, "0000:18:00", "synthetic GPU"),
                new Device(1, 0, 101, "nodea", 1, "0000:2a:00", "synthetic GPU"),
                new Device(2, 0, 200, "nodeb", 0, "0000:18:00", "synthetic GPU"),
                new Device(3, 0, 201, "nodeb", 1, "0000:2a:00", "synthetic GPU"));
        return new Sweep(new Provenance(SourceKind.STORED, "test", null, "synthetic test data, not a measurement"),
                Collective.ALL_REDUCE, RunInfo.unknown(), new Hardware("synthetic GPU", 4, 2, 2, 2, null, null),
                devices, List.of(m), List.of(Note.info("synthetic test data")));
    }

    /** 10 iterations of 10 us; process 3 runs at 13 us; iteration 0 is 39 us, iteration 6 is 40 us. */
    static List<PerIteration> syntheticSamples() {
        List<List<Double>> perProcess = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            List<Double> t = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                t.add(i == 0 ? 39.0 : i == 6 ? 40.0 : p == 3 ? 13.0 : 10.0);
            }
            perProcess.add(t);
        }
        List<Double> max = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            final int k = i;
            max.add(perProcess.stream().mapToDouble(l -> l.get(k)).max().orElseThrow());
        }
        return List.of(new PerIteration(0, Placement.OUT_OF_PLACE, 0, 13, 40, 18.3, 13, 40, 40, 11.1, 60.7, max,
                perProcess));
    }

    static Path write(Path p, Sweep s) throws IOException {
        return write(p, s, List.of());
    }

    static Path write(Path p, Sweep s, List<PerIteration> per) throws IOException {
        Files.writeString(p, SweepJson.write(s, per));
        return p;
    }

    static String sizeText(Measurement m) {
        return org.ncclharness.calibration.measure.SizeText.exact(m.sizeBytes());
    }

    static Sweep scaled(Sweep s, int index, double factor) {
        List<Measurement> rows = new ArrayList<>(s.rows());
        Measurement m = rows.get(index);
        rows.set(index, new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(),
                scale(m.outOfPlace(), factor), scale(m.inPlace(), factor)));
        return s.withRows(rows).withProvenance(new Provenance(SourceKind.STORED, "test", null,
                "test data: " + s.provenance().datasetId() + " with row " + index + " at " + factor + "x bandwidth"));
    }

    static Half scale(Half h, double f) {
        return new Half(h.timeUs() == null ? null : h.timeUs() / f, h.algBwGBps() == null ? null : h.algBwGBps() * f,
                h.busBwGBps() == null ? null : h.busBwGBps() * f, h.wrong());
    }
}
