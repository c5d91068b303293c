package org.ncclharness.calibration.format;

import org.ncclharness.calibration.read.NcclTestsLogReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Sweep;

/** Our writer against the format-exact nccl-tests 2.19.6 block of the reference (B.5). */
class NcclTestsTableWriterTest {

    static List<String> synthetic() throws IOException {
        try (InputStream in = NcclTestsTableWriterTest.class.getResourceAsStream("/logs/synthetic-2.19.6.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void headerLinesAreByteIdenticalToNcclTests() throws IOException {
        List<String> ref = synthetic();
        int at = ref.indexOf(NcclTestsTableWriter.BANNER);
        assertThat(at).isPositive();
        assertThat(ref.get(at + 1)).isEqualTo(NcclTestsTableWriter.COLUMNS);
        assertThat(ref.get(at + 2)).isEqualTo(NcclTestsTableWriter.UNITS);
    }

    @Test
    void rowsAndTrailerReadBackAndPrintIdentically() throws IOException {
        List<String> ref = synthetic();
        Sweep sweep = new NcclTestsLogReader("synthetic", null).read(ref).get(0);
        assertThat(sweep.rows()).hasSize(4);
        assertThat(sweep.devices()).hasSize(8);
        assertThat(sweep.run().testsVersion()).isEqualTo("2.19.6");
        assertThat(sweep.ranks()).isEqualTo(8);
        for (var row : sweep.rows()) {
            assertThat(ref).contains(NcclTestsTableWriter.row(row));
        }
        // The average as this harness computes it for its own measurements: the rows without the log's trailer
        Sweep measured = sweep.withRows(sweep.rows()).withProvenance(
                new org.ncclharness.calibration.measure.Provenance(
                        org.ncclharness.calibration.measure.SourceKind.MEASURED, "here", null, "measured"));
        StringWriter sw = new StringWriter();
        NcclTestsTableWriter.trailer(new PrintWriter(sw), measured, "");
        assertThat(sw.toString().lines().toList()).containsSubsequence("# Out of bounds values : 0 OK",
                "# Avg bus bandwidth    : 223.979 ");
    }

    @Test
    void theWholeBlockAfterTheVersionLinePrintsByteForByte() throws IOException {
        List<String> ref = synthetic();
        Sweep sweep = new NcclTestsLogReader("synthetic", null).read(ref).get(0);
        StringWriter sw = new StringWriter();
        NcclTestsTableWriter.write(new PrintWriter(sw), sweep, List.of());
        // Line 1 names the program that printed the table; ours is not nccl-tests, so the writer leaves it out.
        assertThat(sw.toString()).isEqualTo(String.join("\n", ref.subList(1, ref.size())) + "\n");
    }

    /**
     * A {@code -z 1 -I 1 -K 2} table: the header and row below were printed by nccl-tests 2.19.6's own format
     * strings (util.cu's writeResultHeader, writeBenchmarkLineBody and writePerIterReport, compiled with gcc).
     */
    @Test
    void perIterationTableHasNcclTestsColumnsAndSettingsLines() throws IOException {
        Sweep stored = new NcclTestsLogReader("synthetic", null).read(synthetic()).get(0);
        Measurement m = new Measurement(1048576, 262144, "float", "sum", -1, new Half(12.34, 0.08, 0.0, 0.0),
                new Half(3.21, 0.33, 0.0, null));
        Sweep sweep = stored.withRows(List.of(m));
        List<PerIteration> per = List.of(
                new PerIteration(0, Placement.OUT_OF_PLACE, 2, 11.5, 15.25, 12.0, 12.0, 15.25, 15.25, 0.85, 7.12,
                        List.of(20.0, 20.0, 11.5, 15.25), List.of()),
                new PerIteration(0, Placement.IN_PLACE, 2, 3.0, 4.0, 3.5, 4.0, 4.0, 4.0, 0.35, 10.0,
                        List.of(9.0, 9.0, 3.0, 4.0), List.of()));
        TableExtras extras = new TableExtras(TableExtras.settingLines(1, true, 2), true, per);
        StringWriter sw = new StringWriter();
        NcclTestsTableWriter.write(new PrintWriter(sw), sweep, List.of(), "", "time", extras);
        List<String> lines = sw.toString().lines().toList();

        int params = lines.indexOf(lines.stream().filter(l -> l.startsWith("# nThread")).findFirst().orElseThrow());
        assertThat(lines.subList(params + 1, params + 4)).containsExactly(
                "# Blocking Enabled: wait and barrier after each inner iteration (-m) ",
                "# Per-Iteration Report: CUDA event timing; i_* uses max over process rows; summary skips first 2"
                        + " iterations ",
                "#");
        assertThat(lines).containsSubsequence(
                "#                                                                 out-of-place (+ per-iteration)   "
                        + "                             in-place (+ per-iteration)",
                "#       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max"
                        + "    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv% ",
                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)     (us)"
                        + "     (us)      (%)     (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%) ",
                "     1048576        262144     float     sum      -1    12.34    0.08    0.00       0    11.50    15.25"
                        + "    15.25     7.12     3.21    0.33    0.00    N/A     3.00     4.00     4.00    10.00");

        // what reads nccl-tests' -I tables reads ours: the in-place time is where a reader of 2.19.6 looks for it
        Sweep back = new NcclTestsLogReader("ours", null).read(lines).get(0);
        assertThat(back.rows().get(0).outOfPlace().timeUs()).isEqualTo(12.34);
        assertThat(back.rows().get(0).inPlace().timeUs()).isEqualTo(3.21);
    }

    @Test
    void settingLinesFollowBlockingModeAndPerIterationFlag() {
        assertThat(TableExtras.settingLines(0, false, 0)).isEmpty();
        assertThat(TableExtras.settingLines(2, false, 0))
                .containsExactly("# Blocking Enabled: wait after each inner iteration (-m), no barrier ");
        assertThat(TableExtras.settingLines(3, true, 0)).containsExactly(
                "# Blocking Enabled: wait and barrier after each outer iteration (-n); time excludes barrier ",
                "# Per-Iteration Report: CUDA event timing; i_* uses max over process rows ");
    }

    @Test
    void devicesPrintAsTheyWereRead() throws IOException {
        List<String> ref = synthetic();
        Sweep sweep = new NcclTestsLogReader("synthetic", null).read(ref).get(0);
        StringWriter sw = new StringWriter();
        NcclTestsTableWriter.preamble(new PrintWriter(sw), sweep.run(), sweep.collective(), sweep.devices());
        List<String> lines = sw.toString().lines().toList();
        assertThat(ref).containsAll(lines.subList(0, lines.size()));
    }

    @Test
    void floatStrFollowsGetFloatStr() {
        assertThat(CFormat.floatStr(21.87, 7)).isEqualTo("  21.87");
        assertThat(CFormat.floatStr(12345.678, 7)).isEqualTo("12345.7");
        assertThat(CFormat.floatStr(123456.7, 7)).isEqualTo(" 123457");
        assertThat(CFormat.floatStr(1.2345678e7, 7)).isEqualTo("1.2e+07");
        assertThat(CFormat.floatStr(1234.5, 6)).isEqualTo("1234.5");
        assertThat(CFormat.g(223.97925)).isEqualTo("223.979");
        assertThat(CFormat.g(5e-7)).isEqualTo("5e-07");
    }
}
