package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ncclharness.harness.exit.ExitCode;

/**
 * nccl-tests 2.19.6's newer flags and NCCL's own estimate, through the real bindings into the stand-ins
 * ({@link StandIns}): one process driving two stand-in GPUs ({@code -g 2}). The stand-in NCCL logs the
 * ncclConfig_t it receives and the first launch's pointer alignment (STANDIN_CONFIG_LOG), and estimates
 * 5 µs + bytes at 10 GB/s in ncclGroupSimulateEnd, so each test sees what reached NCCL, not only what was printed.
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class NcclTestsParityIT extends UsesStandIns {

    @TempDir
    Path tmp;

    private Processes.Result sweep(Map<String, String> extra, String... args) throws Exception {
        return sweep(2, extra, args);
    }

    private Processes.Result sweep(int gpus, Map<String, String> extra, String... args) throws Exception {
        Map<String, String> more = new HashMap<>(extra);
        more.put("STANDIN_CONFIG_LOG", log().toString());
        List<String> cmd = new ArrayList<>(List.of("sweep", "--nccl-lib", standIns.dir().toString(), "-g", "" + gpus,
                "--no-diagnose", "--no-calibrate"));
        cmd.addAll(List.of(args));
        return Processes.run(Processes.harness(cmd.toArray(String[]::new)), standIns.environment(gpus, more), tmp,
                "sweep", Processes.HANG_S);
    }

    private Path log() {
        return tmp.resolve("nccl-config.log");
    }

    private List<String> logLines() throws Exception {
        return Files.exists(log()) ? Files.readAllLines(log()) : List.of();
    }

    /** The table's rows (lines that start with a size), split on blanks. */
    private static List<String[]> rows(Processes.Result r) {
        return r.outLines().stream().filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+\\S+.*"))
                .map(l -> l.trim().split("\\s+")).toList();
    }

    @Test
    void ctaPolicyReachesNcclInTheConfigWhoseOtherFieldsStayUnset() throws Exception {
        Processes.Result r = sweep(Map.of(), "-x", "1", "-b", "8", "-e", "1K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        List<String> config = logLines().stream().filter(l -> l.contains("CTAPolicy")).toList();
        assertThat(config).hasSize(2).allSatisfy(l -> assertThat(l)
                .contains("CTAPolicy 1")
                // NCCL_CONFIG_UNDEF_INT, not JavaCPP's zero: blocking 0 would make the communicator non-blocking
                .contains("blocking -2147483648").contains("maxP2pPeers -2147483648")
                // nccl-tests built against NCCL 2.28+ sets it on every communicator; the stand-in says 2.28.3
                .contains("nvlinkCentricSched 1").contains("version 23007"));
        assertThat(rows(r)).isNotEmpty().allSatisfy(row -> assertThat(row[8]).isEqualTo("0"));
    }

    @Test
    void withoutMinusXThePolicyIsLeftToNccl() throws Exception {
        Processes.Result r = sweep(Map.of(), "-b", "8", "-e", "64");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(logLines()).filteredOn(l -> l.contains("CTAPolicy")).hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("CTAPolicy -2147483648"));
    }

    /** nccl-tests (common.cu, case 'x') ignores a policy the loaded NCCL lacks, with one line, and runs on. */
    @Test
    void aPolicyTheLoadedNcclLacksIsIgnoredWithNcclTestsLineAndTheRunGoesOn() throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_NCCL_VERSION", "22703"), "-x", "2", "-b", "8", "-e", "64");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out().lines().filter(l -> l.startsWith("Option -x")).toList())
                .containsExactly("Option -x (cta_policy) 2 is not supported before NCCL 2.28. Ignoring");
        assertThat(logLines()).filteredOn(l -> l.contains("CTAPolicy")).hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("CTAPolicy -2147483648"));
        assertThat(rows(r)).hasSize(4);
    }

    @Test
    void unalignedBuffersAreOffsetByNElementsOfTheTypeAndStillCheckOut() throws Exception {
        Processes.Result r = sweep(Map.of(), "-u", "3", "-b", "8", "-e", "4K", "-d", "double");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        // ncclMemAlloc's buffers start 4096-byte aligned here; -u 3 of double moves both pointers 24 bytes on
        assertThat(r.out()).contains("graph: 0 unalign: 3");
        assertThat(logLines()).filteredOn(l -> l.contains("first launch")).hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("send%256 24 recv%256 24"));
        assertThat(rows(r)).hasSize(10).allSatisfy(row -> {
            assertThat(row[8]).as("out-of-place #wrong at %s B", row[0]).isEqualTo("0");
            assertThat(row[12]).as("in-place #wrong at %s B", row[0]).isEqualTo("0");
        });
    }

    @Test
    void sendrecvAsksNccl230ForItsRingsTwoPeersAndRuns() throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_NCCL_VERSION", "23007"), "--collective", "sendrecv", "-b", "8",
                "-e", "1K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(logLines()).filteredOn(l -> l.contains("CTAPolicy")).hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("maxP2pPeers 2"));
        assertThat(rows(r)).hasSize(8).allSatisfy(row -> assertThat(row[8]).isEqualTo("0"));
    }

    @Test
    void ncclsEstimateIsPrintedAfterTheTableAndWrittenBesideEachRow() throws Exception {
        Path json = tmp.resolve("s.json");
        Processes.Result r = sweep(Map.of(), "-b", "1K", "-e", "64K", "-J", json.toString());
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        JsonNode results = new ObjectMapper().readTree(json.toFile()).path("results");
        assertThat(results).hasSize(7);
        for (JsonNode row : results) {
            // the stand-in's formula: 5 µs + the bytes each rank contributes at 10 GB/s
            double expected = 5 + row.path("size").asLong() / 1e4;
            assertThat(row.path("nccl_harness").path("nccl_estimate_time_us").asDouble())
                    .as("row of %s B", row.path("size")).isCloseTo(expected, within(1e-3));
        }
        String out = r.out();
        int trailer = out.indexOf("# Collective test concluded");
        int block = out.indexOf("# NCCL's own estimate (ncclGroupSimulateEnd");
        assertThat(trailer).isPositive();
        assertThat(block).as("after the table, which stays nccl-tests'").isGreaterThan(trailer);
        assertThat(out).containsPattern("#\\s+65536\\s+\\S+\\s+11\\.55\\s+\\S+")
                .containsPattern("# (INFO|WARN) measured \\d+\\.\\d\\d× NCCL's own estimate at 256 B–4 KiB");
    }

    @Test
    void noEstimateBeforeNccl222OrWhenTurnedOff() throws Exception {
        Path json = tmp.resolve("s.json");
        Processes.Result old = sweep(Map.of("STANDIN_NCCL_VERSION", "22105"), "-b", "1K", "-e", "4K", "-J",
                json.toString());
        assertThat(old.rc()).as(old.out() + old.err()).isEqualTo(ExitCode.OK);
        assertThat(old.out()).doesNotContain("NCCL's own estimate");
        assertThat(Files.readString(json)).doesNotContain("nccl_estimate_time_us");
        Processes.Result off = sweep(Map.of(), "-b", "1K", "-e", "4K", "--no-nccl-estimate");
        assertThat(off.rc()).as(off.out() + off.err()).isEqualTo(ExitCode.OK);
        assertThat(off.out()).doesNotContain("NCCL's own estimate");
    }

    /** nccl-tests' gather_perf, scatter_perf and hypercube_perf, both placements checked element by element. */
    @ParameterizedTest
    @CsvSource({"gather, 1, 4", "scatter, 1, 4", "gather, 0, 2", "scatter, 3, 4", "hypercube, 0, 4"})
    void theRootedAndHypercubeProgramsRunAndCheckOut(String collective, int root, int gpus) throws Exception {
        Processes.Result r = sweep(gpus, Map.of(), "--collective", collective, "-r", "" + root, "-b", "64", "-e", "8K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("# Collective test starting: " + collective + "_perf");
        assertThat(rows(r)).hasSize(8).allSatisfy(row -> {
            assertThat(row[8]).as("out-of-place #wrong at %s B", row[0]).isEqualTo("0");
            assertThat(row[12]).as("in-place #wrong at %s B", row[0]).isEqualTo("0");
        });
    }

    /** Below NCCL 2.28 nccl-tests 2.19.6 builds gather and scatter from grouped send/recv: so does the harness. */
    @ParameterizedTest
    @CsvSource({"gather, 1", "scatter, 0"})
    void gatherAndScatterBelowNccl228AreGroupedSendsAndReceives(String collective, int root) throws Exception {
        Processes.Result r = sweep(2, Map.of("STANDIN_NCCL_VERSION", "22703"), "--collective", collective, "-r",
                "" + root, "-b", "64", "-e", "8K", "-m", "2");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(r.out()).contains("nccl-library=22703");
        assertThat(rows(r)).hasSize(8).allSatisfy(row -> {
            assertThat(row[8]).as("out-of-place #wrong at %s B", row[0]).isEqualTo("0");
            assertThat(row[12]).as("in-place #wrong at %s B", row[0]).isEqualTo("0");
        });
    }

    @Test
    void aCorruptGatherIsCounted() throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_CORRUPT", "1"), "--collective", "gather", "-b", "64", "-e", "128");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.FAIL);
        assertThat(rows(r)).allSatisfy(row -> assertThat(row[8]).isNotEqualTo("0"));
    }

    @Test
    void hypercubeOnThreeRanksIsRefusedInOneLine() throws Exception {
        Processes.Result r = sweep(3, Map.of(), "--collective", "hypercube", "-b", "64", "-e", "128");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("power-of-two rank count; this job has 3 ranks");
    }
}
