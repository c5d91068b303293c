package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.InputException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;

/** The excerpts of the issue "Read every real log as written", each read as the log says. */
class ReaderExamplesTest {

    private static List<Sweep> read(String text) {
        return new NcclTestsLogReader("x.txt", null).read(text.lines().toList());
    }

    @Test
    void anAllGatherExcerptIsNeverASilentAllReduce() {
        List<Sweep> s = read("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                   268435456       4194304     float    none      -1   1452.4  184.82  173.27      0   1434.6  187.12  175.43      0
                  1073741824      16777216     float    none      -1   5755.6  186.55  174.89      0   5733.8  187.27  175.56      0
                """);
        // redop none, root -1 and size = 16 x count x 4 B leave all_gather and alltoall, which print the same
        // sizes and the same bus factor: the rows cannot tell them apart, so the reader says which they may be.
        assertThat(s.get(0).collective()).isEqualTo(Collective.UNKNOWN);
        assertThat(String.join(" ", Note.texts(s.get(0).notes()))).contains("all_gather/alltoall").contains("pass the collective");
        assertThat(s.get(0).ranks()).isEqualTo(16);
    }

    @Test
    void sizesStartingAgainAfterABannerAreATableOfTheirOwnButACycleWithoutTextIsNot() {
        // an egrep of several runs (logs/real/rowsonly_mi325x_rccl_grep_4runs_1to8nodes): 8 ranks, then 16
        List<Sweep> runs = read("""
                ====== 1-node ======
                  4294967296    1073741824     float     sum      -1    23719  181.07  316.88      0    23774  180.66  316.16      0
                  8589934592    2147483648     float     sum      -1    47217  181.93  318.37      0    47268  181.73  318.03      0
                ====== 2-node ======
                  4294967296    1073741824     float     sum      -1    23192  185.19  347.23      0    23209  185.06  346.99      0
                  8589934592    2147483648     float     sum      -1    46123  186.24  349.20      0    46145  186.15  349.03      0
                """);
        assertThat(runs).hasSize(2);
        assertThat(runs).extracting(Sweep::ranks).containsExactly(8, 16);
        assertThat(Note.texts(runs.get(1).notes())).contains("line 5: the sizes start again after line 4 ('======"
                + " 2-node ======'): read as a table of its own, not a repeated cycle of the one before");
        // -N repeats the sweep with nothing between: one table, its cycles kept
        List<Sweep> cycles = read("""
                  4294967296    1073741824     float     sum      -1    23719  181.07  316.88      0    23774  180.66  316.16      0
                  8589934592    2147483648     float     sum      -1    47217  181.93  318.37      0    47268  181.73  318.03      0
                  4294967296    1073741824     float     sum      -1    23720  181.06  316.86      0    23774  180.66  316.16      0
                """);
        assertThat(cycles).hasSize(1);
        assertThat(cycles.get(0).rows()).hasSize(3);
    }

    @Test
    void aPieceOfARowBeforeTheFirstRowIsNamedInANoteWithItsLine() {
        // an excerpt that starts inside a row, before the table's header: the tail has no start to join
        Sweep s = read("""
                   184.82  173.27      0   1434.6  187.12  175.43      0
                e+00
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                  1073741824     268435456     float     sum      -1   5755.6  186.55  326.46      0   5733.8  187.27  327.72      0
                """).get(0);
        assertThat(s.rows()).hasSize(1);
        assertThat(Note.texts(s.notes())).contains(
                "line 1: '184.82  173.27      0   1434.6  187.12  175.43      0' is a piece of a row outside any table"
                        + " (an excerpt that starts inside a row?); not read",
                "line 2: 'e+00' is a piece of a row outside any table (an excerpt that starts inside a row?); not"
                        + " read");
    }

    @Test
    void theOldErrorColumnIsAnErrorNotACountOfWrongElements() {
        Sweep s = read("""
                #       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
                #        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                     1048576        262144   float     sum    135.3    7.75   15.02  7e-07    132.7    7.90   15.31  7e-07
                # Out of bounds values : 0 OK
                """).get(0);
        assertThat(s.rows().get(0).outOfPlace().wrong()).isNull();
        assertThat(s.rows().get(0).outOfPlace().maxError()).isEqualTo(7e-07);
        assertThat(s.trailer().outOfBounds()).isEqualTo("0 OK");
        // redop sum, count = size / 4 and busbw/algbw = 1.938 leave AllReduce alone; two decimals cannot tell
        // its 2(N-1)/N at N = 32 (1.9375) from N = 33 (1.9394), so N stays unknown rather than guessed
        assertThat(s.collective()).isEqualTo(Collective.ALL_REDUCE);
        assertThat(s.ranks()).isNull();
    }

    @Test
    void theTwoZeroLayoutWithoutRedopOrRootReads() {
        Sweep s = read("""
                #       size         count    type     time   algbw   busbw  error     time   algbw   busbw  error
                #        (B)    (elements)             (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                           8             1   float    21.03    0.00    0.00  0e+00    20.68    0.00    0.00  0e+00
                """).get(0);
        assertThat(s.rows()).hasSize(1);
        assertThat(s.rows().get(0).outOfPlace().timeUs()).isEqualTo(21.03);
        assertThat(s.rows().get(0).inPlace().timeUs()).isEqualTo(20.68);
    }

    @Test
    void anInfiniteAverageAsCPrintsItStatesNoAverage() {
        // a row timed at 0 µs has an infinite busbw, and nccl-tests' %g prints the average over it as "inf"
        Sweep s = read("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                     1048576        262144     float     sum      -1    20.00   52.43   91.75      0    20.00   52.43   91.75      0
                # Out of bounds values : 0 OK
                # Avg bus bandwidth    : inf
                """).get(0);
        assertThat(s.rows()).hasSize(1);
        assertThat(s.trailer().outOfBounds()).isEqualTo("0 OK");
        assertThat(s.trailer().avgBusBwGBps()).isNull();
    }

    @Test
    void everyTableIsItsOwnSweepWithItsOwnCollectiveAndTrailer() {
        List<Sweep> s = read("""
                # Collective test starting: all_reduce_perf
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                     1048576        262144     float     sum      -1    20.00   52.43   91.75      0    20.00   52.43   91.75      0
                # Out of bounds values : 0 OK
                # Avg bus bandwidth    : 405.346
                # Collective test starting: all_gather_perf
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                     1048576         32768     float    none      -1    20.00   52.43   45.88      0    20.00   52.43   45.88      0
                # Out of bounds values : 0 OK
                # Avg bus bandwidth    : 28.0844
                """);
        assertThat(s).extracting(Sweep::collective).containsExactly(Collective.ALL_REDUCE, Collective.ALL_GATHER);
        // the trailer as the log states it, not a recomputation from the rows shown
        assertThat(s).extracting(x -> x.trailer().avgBusBwGBps()).containsExactly(405.346, 28.0844);
        assertThat(s.get(1).ranks()).isEqualTo(8);
    }

    @Test
    void launcherPrefixesOfAnyKindAndInAnyChainComeOff() {
        String row = "   1048576        262144     float     sum      -1    20.00   52.43   91.75      0    20.00   52.43   91.75      0";
        String header = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong";
        for (String prefix : List.of("(head, rank=0, pid=3808) ", "(worker1, rank=1, pid=2769, ip=10.100.10.12) ",
                "(head, rank=0, pid=3808) [1,0]<stdout>:", "[pod/nccl-test-launcher-x7k2p/mpi-launcher] ",
                "2024-05-01T12:00:00.123456789Z [pod/nccl-test-launcher-x7k2p/mpi-launcher] ", " 0: ",
                "node-07: ", "> ", "> > ", "2025-03-14 08:01:02,345 ")) {
            List<Sweep> s = read("# Collective test starting: all_reduce_perf\n" + prefix + header + "\n" + prefix + row + "\n");
            assertThat(s).as(prefix).hasSize(1);
            assertThat(s.get(0).rows().get(0).outOfPlace().busBwGBps()).as(prefix).isEqualTo(91.75);
        }
    }

    @Test
    void aDamagedRowInsideATableIsAnErrorNamingItsLine() {
        assertThatThrownBy(() -> read("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                        1024           256     float     sum      -1    10.00    0.10    0.10      0    10.00    0.10    0.10      0
                        2048           512     flo
                        4096          1024     float     sum      -1    12.00    0.34    0.34      0    12.00    0.34    0.34      0
                """)).isInstanceOf(InputException.class).hasMessageStartingWith("x.txt:3: ");
    }

    @Test
    void aRowBrokenOverTwoLinesIsJoined() {
        Sweep s = read("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                        1024           256     float     sum      -1    10.00    0.10    0.10      0    10.00    0.10    0.10      0
                        2048           512
                   float     sum      -1    11.00    0.19    0.19      0    11.00    0.19    0.19      0
                        4096          1024     float     sum      -1    12.00    0.34    0.34      0    12.00    0.34    0.34      0
                """).get(0);
        assertThat(s.rows()).extracting(m -> m.sizeBytes()).containsExactly(1024L, 2048L, 4096L);
    }

    @Test
    void aShortLastRowFollowedByTheTrailerIsAnError() {
        assertThatThrownBy(() -> read("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                        1024           256     float     sum      -1    10.00    0.10    0.10      0
                # Out of bounds values : 0 OK
                """)).isInstanceOf(InputException.class).hasMessageStartingWith("x.txt:2: row cut short");
    }

    @Test
    void numbersOutOfRangeAreRefusedWithTheirColumn() {
        String head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
        assertThatThrownBy(() -> read(head + "  1024  256  float  sum  -1  1e400  0.10  0.10  0  10.00  0.10  0.10  0\n"))
                .hasMessageContaining("time '1e400' is too large");
        assertThatThrownBy(() -> read(head + "  1024  256  float  sum  99999999999  10.0  0.10  0.10  0  10.00  0.10  0.10  0\n"))
                .hasMessageContaining("root 99999999999 is out of range");
        assertThatThrownBy(() -> read(head + "  99999999999999999999  256  float  sum  -1  10.0  0.10  0.10  0  10.00  0.10  0.10  0\n"))
                .hasMessageContaining("size");
    }

    private static final String AG_ROWS = """
            #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                 1048576         32768     float    none      -1    20.00   52.43   45.88      0    20.00   52.43   45.88      0
            """;
    private static final String AR_ROWS = """
            #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                 1048576        262144     float     sum      -1    20.00   52.43   91.75      0    20.00   52.43   91.75      0
            """;

    @Test
    void proseThatMentionsAProgramNamesNothingAndANameTheRowsContradictIsOverruled() {
        Sweep prose = read("Yesterday's all_reduce_perf run crashed, so this time we ran another test.\n" + AG_ROWS)
                .get(0);
        assertThat(prose.collective()).isEqualTo(Collective.UNKNOWN);
        Sweep contradicted = read("$ mpirun -np 8 ./build/all_reduce_perf -b 1M -e 1M\n" + AG_ROWS).get(0);
        assertThat(contradicted.collective()).isEqualTo(Collective.UNKNOWN);
        assertThat(String.join(" ", Note.texts(contradicted.notes()))).contains("the log names all_reduce, but its rows");
        assertThat(contradicted.ranks()).isEqualTo(8);
        assertThat(read("$ mpirun -np 8 ./build/all_gather_perf -b 1M -e 1M\n" + AG_ROWS).get(0).collective())
                .isEqualTo(Collective.ALL_GATHER);
    }

    @Test
    void aGivenCollectiveNamesOnlyTheTablesTheRowsLeaveOpen() {
        List<Sweep> s = new NcclTestsLogReader("x.txt", Collective.ALL_GATHER).read((AR_ROWS + AG_ROWS).lines().toList());
        assertThat(s).extracting(Sweep::collective).containsExactly(Collective.ALL_REDUCE, Collective.ALL_GATHER);
        List<Sweep> wrong = new NcclTestsLogReader("x.txt", Collective.BROADCAST).read(AG_ROWS.lines().toList());
        assertThat(wrong.get(0).collective()).isEqualTo(Collective.UNKNOWN);
        assertThat(String.join(" ", Note.texts(wrong.get(0).notes()))).contains("broadcast (as given) does not fit the rows");
    }

    @Test
    void aCsvWithoutDevicesGetsItsRankCountFromItsRows() {
        List<Sweep> log = read(AR_ROWS);
        Sweep csv = Inputs.parse("x.csv", MeasurementCsv.toString(log)).get(0);
        assertThat(csv.collective()).isEqualTo(Collective.ALL_REDUCE);
        assertThat(csv.ranks()).isEqualTo(8);
    }

    /**
     * nccl-tests of 2019 (NCCL 2.4, a user's notes file) printed time in ms under a 'bytes N type op' header: every
     * row's size/time agrees with its algbw only as ms, so the times are read as ms; rows written behind '#' are
     * named in the refusal, which tells how to read them. A modern table whose time disagrees is not rescaled.
     */
    @Test
    void millisecondTimesOfOldTestsAreReadAsMillisecondsAndCommentedRowsAreNamed() {
        String header = """
                #                                                 out-of-place                    in-place
                #      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res
                """;
        String rows = """
                      262144         65536   float     sum    0.092   2.85   2.85       N/A    0.092   2.85   2.85      N/A
                      524288        131072   float     sum    0.158   3.31   3.31       N/A    0.158   3.31   3.31      N/A
                """;
        Sweep s = read(header + rows).get(0);
        assertThat(s.rows().get(1).outOfPlace().timeUs()).isEqualTo(158.0);
        assertThat(Note.texts(s.notes())).anySatisfy(n -> assertThat(n).startsWith("time read in milliseconds"));
        String commented = rows.lines().map(l -> "#" + l).reduce("", (a, b) -> a + b + "\n");
        assertThatThrownBy(() -> read(header + commented)).isInstanceOf(InputException.class)
                .hasMessageContaining("x.txt:3: no nccl-tests result table found")
                .hasMessageContaining("2 lines are shaped like result rows behind a '#': remove the '#'");
        Sweep modern = read("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                      524288        131072     float     sum      -1    0.158   3.31   6.20      0    0.158   3.31   6.20      0
                """).get(0);
        assertThat(modern.rows().get(0).outOfPlace().timeUs()).isEqualTo(0.158);
    }

    /** A stored log without a trailer: the line convert writes for it is marked as computed from the rows. */
    @Test
    void aTrailerTheSourceDidNotPrintIsMarkedWhenWritten() {
        Sweep s = read("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                     1048576        262144     float     sum      -1    20.00   52.43   91.75      0    20.00   52.43   91.75      0
                """).get(0);
        java.io.StringWriter w = new java.io.StringWriter();
        NcclTestsTableWriter.trailer(new java.io.PrintWriter(w, true), s, "");
        assertThat(w.toString()).contains("# Out of bounds values : 0 OK " + NcclTestsTableWriter.RECOMPUTED);
    }

    /** nccl-tests of 2019 listed devices without Group and Pid: the GPU, N and the host still come from them. */
    @Test
    void aDeviceListWithoutGroupAndPidIsRead() {
        Sweep s = read("""
                # nThread 1 nGpus 2 minBytes 1 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 validation: 0
                # Using devices
                #   Rank  0 on       ncrh device  0 [0x05] GeForce RTX 2080 Ti
                #   Rank  1 on       ncrh device  1 [0x06] GeForce RTX 2080 Ti
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                     1048576        262144     float     sum      -1    20.00   52.43   52.43      0    20.00   52.43   52.43      0
                """).get(0);
        assertThat(s.devices()).extracting(d -> d.host() + " " + d.device() + " " + d.name())
                .containsExactly("ncrh 0 GeForce RTX 2080 Ti", "ncrh 1 GeForce RTX 2080 Ti");
        assertThat(s.hardware().gpuModel()).isEqualTo("GeForce RTX 2080 Ti");
        assertThat(s.hardware().ranks()).isEqualTo(2);
        assertThat(s.hardware().hosts()).isEqualTo(1);
    }

    /**
     * A device list whose lines end at the PCI id (rccl-tests of the MI355X fixture) names no GPU: the model is
     * unknown, so calibrate says "the GPU name is not stated" rather than "the GPU name  is not one ... knows".
     */
    @Test
    void aDeviceListWithoutGpuNamesLeavesTheGpuUnknown() {
        Sweep s = read("""
                # nThread 1 nGpus 1 minBytes 1 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 validation: 0
                # Using devices
                #  Rank  0 Group  0 Pid 2908511 on mi355-gpu-23 device  0 [0000:75:00]
                #  Rank  1 Group  0 Pid 2908512 on mi355-gpu-23 device  1 [0000:05:00]
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                     1048576        262144     float     sum      -1    20.00   52.43   52.43      0    20.00   52.43   52.43      0
                """).get(0);
        assertThat(s.hardware().gpuModel()).isNull();
        assertThat(s.hardware().ranks()).isEqualTo(2);
        assertThat(s.hardware().hosts()).isEqualTo(1);
    }

    /** AllGather's smallest sizes round to 0 B (less than one element per rank): the fit says it leaves them out. */
    @Test
    void zeroByteRowsAreNamedNotDroppedSilently() {
        Sweep s = read("""
                # Collective test starting: all_gather_perf
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                           0             0     float    none      -1     1.63    0.00    0.00      0     1.38    0.00    0.00      0
                           0             0     float    none      -1     1.35    0.00    0.00      0     1.34    0.00    0.00      0
                          64             2     float    none      -1    20.00    0.00    0.00      0    20.00    0.00    0.00      0
                     1048576         32768     float    none      -1    40.00   26.21   22.94      0    40.00   26.21   22.94      0
                """).get(0);
        org.ncclharness.calibration.fit.FitPoints p = org.ncclharness.calibration.fit.FitPoints.from(s, 8);
        assertThat(p.size()).isEqualTo(2);
        assertThat(Note.texts(p.notes())).anyMatch(n -> n.startsWith("2 rows of 0 bytes not fitted"));
    }

    /** Another tool's CSV is named as one, with the header this tool reads, not as a log without rows. */
    @Test
    void anotherToolsCsvIsToldWhichCsvIsRead() {
        assertThatThrownBy(() -> Inputs.parse("other.csv", """
                timestamp,host,test,size_bytes,time_ms,bandwidth_gbps
                2024-01-01,node1,allreduce,1048576,0.12,8.7
                """, null)).isInstanceOf(InputException.class)
                .hasMessageStartingWith("other.csv:1: a CSV header this tool does not read ('timestamp,host,test,")
                .hasMessageContaining(MeasurementCsv.HEADER);
    }
}
