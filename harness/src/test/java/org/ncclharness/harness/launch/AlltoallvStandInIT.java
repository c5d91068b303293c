package org.ncclharness.harness.launch;

import static org.assertj.core.api.Assertions.assertThat;

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
 * nccl-tests 2.19.6's alltoallv_perf through the real bindings into the gcc-built stand-ins under mpirun: two
 * processes, one or two stand-in GPUs each. The size column is the busiest rank's bytes as nccl-tests prints it
 * (worked out from its formula in the comments), and the data check compares every received segment.
 */
@Timeout(value = Processes.TEST_HANG_S, unit = TimeUnit.SECONDS)
class AlltoallvStandInIT extends UsesStandIns {

    @TempDir
    Path tmp;

    /**
     * alltoallv on two processes, without the NCCL_DEBUG pass (one JVM per rank, not two): what NCCL's INFO lines
     * tell is {@link StandInSweepIT}'s subject, not this collective's.
     */
    private Processes.Result sweep(Map<String, String> extra, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("--collective", "alltoallv", "--no-diagnose"));
        cmd.addAll(List.of(args));
        return standIns.sweep(tmp, extra, cmd);
    }

    private static List<String[]> rows(Processes.Result r) {
        String tag = "[1,0]<stdout>:";
        return r.outLines().stream().filter(l -> l.startsWith(tag)).map(l -> l.substring(tag.length()))
                .filter(l -> l.matches("\\s+\\d+\\s+\\d+\\s+\\S+.*")).map(l -> l.trim().split("\\s+")).toList();
    }

    /**
     * -b 1K -e 1K, float. 2 ranks: per-peer share (256/2) = 128 elements, spread 1 sends all 1024 B to the other
     * rank, spread 0 512 B to each: 1024 B either way. 4 ranks (-g 2): share 64; spread 0 gives 256 B a peer (1024
     * B), spread 1 gives distance x 1024/6 rounded down to 16 B: 0 + 160 + 336 + 512 = 1008 B.
     */
    @ParameterizedTest
    @CsvSource({"0, 1, 1024, 128", "1, 1, 1024, 128", "0, 2, 1024, 64", "1, 2, 1008, 64", "0.5, 2, 1008, 64"})
    void theGeneratedPatternRunsWithNothingWrong(String spread, String gpus, String size, String count)
            throws Exception {
        Processes.Result r = sweep(Map.of("NCCL_TESTS_ALLTOALLV_SPREAD", spread), "-b", "1K", "-e", "1K", "-g", gpus,
                "-c", "2");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        List<String[]> rows = rows(r);
        assertThat(rows).hasSize(1);
        String[] row = rows.get(0);
        assertThat(row[0]).isEqualTo(size);
        assertThat(row[1]).isEqualTo(count);
        assertThat(row[3]).isEqualTo("none");
        assertThat(row[4]).isEqualTo("-1");
        assertThat(row[8]).as("out-of-place #wrong").isEqualTo("0");
        // in place is not checked, as nccl-tests
        assertThat(row[12]).isEqualTo("N/A");
        // busbw = algbw x (N-1)/N
        int ranks = 2 * Integer.parseInt(gpus);
        assertThat(Double.parseDouble(row[7])).isCloseTo(Double.parseDouble(row[6]) * (ranks - 1) / ranks,
                org.assertj.core.api.Assertions.within(0.015));
    }

    @Test
    void aSweepOfSizesRunsWithNothingWrong() throws Exception {
        Processes.Result r = sweep(Map.of(), "-b", "64", "-e", "64K", "-g", "2");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        assertThat(rows(r)).hasSize(11).allSatisfy(row -> assertThat(row[8]).isEqualTo("0"));
    }

    @Test
    void aCorruptedElementIsCounted() throws Exception {
        Processes.Result r = sweep(Map.of("STANDIN_CORRUPT", "1"), "-b", "1K", "-e", "1K", "-g", "2");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(rows(r)).singleElement().satisfies(row -> assertThat(Long.parseLong(row[8])).isPositive());
    }

    /**
     * A 4x4 matrix (a blank line is skipped, as nccl-tests skips it), each cell rounded down to 16 B: rows send
     * 592, 464, 288 and 608 B; ranks 0 and 2 receive 0 + 48 + 96 + 512 = 192 + 400 + 0 + 64 = 656 B, the most any
     * rank moves, which is the size column; the count column is 0 in matrix mode.
     */
    @Test
    void aTrafficMatrixRunsOneSizeWithNothingWrong() throws Exception {
        Path m = Files.writeString(tmp.resolve("traffic.txt"), """
                0 100 200 310
                50 0 400 16

                100 100 0 100
                512 32 64 0
                """);
        Processes.Result r = sweep(Map.of("NCCL_TESTS_ALLTOALLV_MATRIX_FILE", m.toString()), "-b", "4K", "-e", "4K",
                "-g", "2", "-d", "int32");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
        String[] row = rows(r).get(0);
        assertThat(rows(r)).hasSize(1);
        assertThat(row[0]).isEqualTo("656");
        assertThat(row[1]).isEqualTo("0");
        assertThat(row[8]).isEqualTo("0");
    }

    @Test
    void aMatrixWithDifferentMinAndMaxSizesIsRefused() throws Exception {
        Path m = Files.writeString(tmp.resolve("traffic.txt"), "0 16\n16 0\n");
        Processes.Result r = sweep(Map.of("NCCL_TESTS_ALLTOALLV_MATRIX_FILE", m.toString()), "-b", "1K", "-e", "4K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("-b 1024 and -e 4096 differ, but with NCCL_TESTS_ALLTOALLV_MATRIX_FILE the sizes"
                + " come from the matrix: give -b and -e the same value");
        assertThat(rows(r)).isEmpty();
    }

    @Test
    void aBadMatrixFileIsRefusedInOneLineNamingFileAndLine() throws Exception {
        Path m = Files.writeString(tmp.resolve("traffic.txt"), "0 16\n16 x\n");
        Map<String, String> env = new HashMap<>(Map.of("NCCL_TESTS_ALLTOALLV_MATRIX_FILE", m.toString()));
        Processes.Result r = sweep(env, "-b", "1K", "-e", "1K");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains(m + ":2: column 2 is 'x': expected a byte count of 0 or more");
        assertThat(rows(r)).isEmpty();
    }

    @Test
    void aMatrixNarrowerThanTheJobIsRefused() throws Exception {
        Path m = Files.writeString(tmp.resolve("traffic.txt"), "0 16\n16 0\n");
        Processes.Result r = sweep(Map.of("NCCL_TESTS_ALLTOALLV_MATRIX_FILE", m.toString()), "-b", "1K", "-e", "1K",
                "-g", "2");
        assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitCode.USAGE);
        assertThat(r.err()).contains("matrix is 2x2, smaller than the job's 4 ranks");
    }
}
