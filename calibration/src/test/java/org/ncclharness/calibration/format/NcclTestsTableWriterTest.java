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
