package org.ncclharness.harness.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.calibration.resolve.RunResolver;
import org.ncclharness.harness.CliRun;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.runs.RunInputs;

/**
 * A log and the JSON {@code convert --json} writes of it are one run (issue 40: "CSV and JSON inputs give the same
 * document with what they carry"): the JSON keeps what the log's lines state (the NICs, the network NCCL named, its
 * diagnosis) and a dataset's metadata, so {@code check} reaches the same verdict from both, word for word, and
 * every command that resolves a run's facts ({@code calibrate}, {@code plot}, {@code check}, {@code bringup}) resolves
 * the same ones. The cases are the new-user trial's, on the real logs it ran.
 */
class LogAndItsJsonTest {

    private static final String LOGS = "../calibration/src/test/resources/logs/";
    private static final String H100_IB_AT_11_PCT = LOGS + "ncclinfo/ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt";
    private static final String FAILED_1024_RANKS = LOGS + "real/failed_h100_1024rank_listcut_reducedmaxbytes_issue322.txt";
    private static final String OCI = "a100_allreduce_16gpu_2node_oci_roce";

    @TempDir
    Path tmp;

    /** Each run, the flags the trial gave, the verdict's exit code and what the log's check says that the JSON lost. */
    static Stream<Arguments> runs() {
        return Stream.of(
                arguments(H100_IB_AT_11_PCT, List.of("--interconnect", "IB-NDR"), ExitCode.FAIL,
                        "FAIL: busbw at the largest size (16 GiB): 44.27 GB/s = 11.1 % of the line rate of 8 IB-NDR NICs"
                                + " per host at 50 GB/s (400 GB/s)"),
                arguments(FAILED_1024_RANKS, List.of(), ExitCode.FAIL, "FAIL: diagnosis TEST_FAILED: nccl-tests reported"
                        + " 40 failure lines"),
                arguments(LOGS + "real/prefix_mpitag_midline_h100_p5_efa_2x8_keitaw.txt", List.of(), ExitCode.OK,
                        "INFO: EFA (from the log's NCCL lines: 'NET/OFI Selected Provider is efa'; --interconnect"
                                + " overrides it) taken as the network between the 2 hosts"),
                arguments(LOGS + "real/twohost_v100_2x8_efa_p3dn_dlami_errorcol.txt", List.of(), ExitCode.OK,
                        "INFO: EFA (from the log's NCCL lines: 'NET/OFI Selected Provider is efa'; --interconnect"
                                + " overrides it) taken as the network between the 2 hosts"),
                arguments(LOGS + "real/twohost_a10g_2x1_socket_ncclinfo_awsbatch_errorcol.txt", List.of(), ExitCode.OK,
                        "INFO: TCP (from the log's NCCL lines: 'Using network Socket'; --interconnect overrides it)"
                                + " taken as the network between the hosts"),
                arguments(OCI, List.of(), ExitCode.OK, "of the line rate of 16 RoCE-100G NICs per host at 12.5 GB/s"
                        + " (200 GB/s)"));
    }

    @ParameterizedTest
    @MethodSource("runs")
    void checkOfTheJsonIsCheckOfTheLog(String run, List<String> flags, int exit, String says) {
        String json = converted(run);
        CliRun log = check(run, flags);
        CliRun kept = check(json, flags);
        assertThat(log.exitCode()).as(log.err()).isEqualTo(exit);
        assertThat(log.out()).contains(says);
        assertThat(kept.exitCode()).as(kept.err()).isEqualTo(exit);
        // the same report, the JSON's name aside (its rows, evidence and provenance name the log it came from)
        assertThat(kept.out().replace(json, run)).isEqualTo(log.out());
    }

    @ParameterizedTest
    @MethodSource("runs")
    void theJsonResolvesTheFactsOfTheLog(String run, List<String> flags) {
        RunDocument log = RunInputs.document(run, null);
        RunDocument kept = RunInputs.document(converted(run), null);
        assertThat(kept.nics()).isEqualTo(log.nics());
        assertThat(kept.namedNetwork()).isEqualTo(log.namedNetwork());
        Hints hints = flags.isEmpty() ? Hints.NONE : new Hints(null, null, flags.get(1), null, null, null,
                org.ncclharness.calibration.hardware.Nics.UNKNOWN);
        // calibrate and plot assume one host where nothing says; check and bringup leave it unknown
        for (RunResolver.UnstatedHosts unstated : RunResolver.UnstatedHosts.values()) {
            List<ResolvedRun> a = RunInputs.resolve(log, hints, unstated);
            List<ResolvedRun> b = RunInputs.resolve(kept, hints, unstated);
            assertThat(b).hasSameSizeAs(a);
            for (int i = 0; i < a.size(); i++) {
                assertThat(facts(b.get(i))).as("%s, table %d, %s", run, i, unstated).isEqualTo(facts(a.get(i)));
            }
        }
    }

    /** A JSON of an earlier release keeps none of it, and reads as it did: the facts are not known. */
    @Test
    void aJsonWithoutTheSourceObjectReadsAsBefore() throws Exception {
        Path json = Path.of(converted(H100_IB_AT_11_PCT));
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(json.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("nccl_harness")).remove("source");
        Path earlier = tmp.resolve("earlier.json");
        Files.writeString(earlier, tree.toString());
        CliRun r = check(earlier.toString(), List.of("--interconnect", "IB-NDR"));
        assertThat(r.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("IB-NDR is 50 GB/s per NIC and the NICs per host are not known")
                .doesNotContain("NCCL used (its INFO lines)");
    }

    /** The CSV cannot keep them, and its note says so, naming the flag that states the NICs again. */
    @Test
    void theCsvSaysItLosesTheNicsAndTheNetwork() {
        CliRun r = CliRun.of("convert", H100_IB_AT_11_PCT, "--csv", tmp.resolve("run.csv").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.err()).contains("the NICs per host").contains("--nics-per-host")
                .contains("or convert with --json, which keeps them");
    }

    private String converted(String run) {
        Path json = tmp.resolve(Path.of(run).getFileName() + ".json");
        if (!Files.exists(json)) {
            CliRun c = CliRun.of("convert", run, "--json", json.toString());
            assertThat(c.exitCode()).as(c.err()).isEqualTo(ExitCode.OK);
        }
        return json.toString();
    }

    private static CliRun check(String run, List<String> flags) {
        List<String> args = new ArrayList<>(List.of("check", run));
        args.addAll(flags);
        return CliRun.of(args.toArray(String[]::new));
    }

    /** What a command takes from a resolved run besides its rows (whose notes a file keeps as words only). */
    private static List<Object> facts(ResolvedRun r) {
        return List.of(r.hardware(), r.nics(), String.valueOf(r.forcedAlgo()), r.notes(), r.missing());
    }
}
