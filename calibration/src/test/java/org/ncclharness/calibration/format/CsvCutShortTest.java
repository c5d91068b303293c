package org.ncclharness.calibration.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * A CSV whose last row ends without a line break: whole, it reads as any row; cut inside (an interrupted copy), it
 * is refused at its line, never read as a short row or as a second table.
 */
class CsvCutShortTest {

    private static String csv(String label) {
        Sweep s = DatasetCatalog.bundled().get("a100_allreduce_16gpu_2node_oci_roce").sweep()
                .withProvenance(new Provenance(SourceKind.STORED, "src", null, label));
        return MeasurementCsv.toString(List.of(s));
    }

    private static int lines(String text) {
        return (int) text.lines().count();
    }

    @Test
    void aWholeLastRowWithoutALineBreakReads() {
        String full = csv("stored measurements: run.txt");
        String noBreak = full.substring(0, full.length() - 1);
        assertThat(MeasurementCsv.readTables("k.csv", noBreak)).isEqualTo(MeasurementCsv.readTables("k.csv", full));
        // one row alone has no table above to continue
        String one = full.lines().limit(2).reduce((a, b) -> a + "\n" + b).orElseThrow();
        assertThat(MeasurementCsv.readTables("k.csv", one)).singleElement()
                .satisfies(t -> assertThat(t.rows()).hasSize(1));
    }

    @Test
    void aLastRowCutInsideItsLabelIsRefusedNotReadAsASecondTable() {
        String full = csv("stored measurements: run.txt");
        String cut = full.substring(0, full.length() - 5);
        assertThatThrownBy(() -> MeasurementCsv.readTables("k.csv", cut))
                .isInstanceOf(InputException.class)
                .hasMessage("k.csv:" + lines(cut) + ": the last row ends without a line break and does not continue"
                        + " the table above (its collective, type, op or provenance differ, or its size does not"
                        + " grow): the file looks cut inside that row (an interrupted copy): copy it again, or delete"
                        + " the partial row; if the row is whole, end the file with a line break");
        // read from a file as from a string
        assertThatThrownBy(() -> MeasurementCsv.readTables("k.csv", new StringReader(cut)))
                .hasMessageStartingWith("k.csv:" + lines(cut) + ": the last row ends without a line break");
    }

    @Test
    void aLastRowCutBeforeItsLastFieldSaysSo() {
        String full = csv("stored measurements: run.txt");
        String last = full.lines().reduce((a, b) -> b).orElseThrow();
        String cut = full.substring(0, full.length() - 1 - last.length()) + last.substring(0, last.indexOf(",,") + 1);
        int fields = cut.substring(cut.lastIndexOf('\n') + 1).split(",", -1).length;
        assertThatThrownBy(() -> MeasurementCsv.readTables("k.csv", cut))
                .hasMessage("k.csv:" + lines(cut) + ": the last row ends without a line break after " + fields
                        + " of its 18 fields: the file looks cut inside that row (an interrupted copy): copy it"
                        + " again, or delete the partial row");
        // the same short row with its line break is an ordinary bad row
        assertThatThrownBy(() -> MeasurementCsv.readTables("k.csv", cut + "\n"))
                .hasMessage("k.csv:" + lines(cut) + ": expected 18 fields (" + MeasurementCsv.HEADER + "), found "
                        + fields);
    }

    @Test
    void aLastRowCutInsideAQuotedLabelIsRefusedAtItsLine() {
        String full = csv("stored measurements: run.txt, \"rerun\"");
        String cut = full.substring(0, full.length() - 6);
        assertThatThrownBy(() -> MeasurementCsv.readTables("k.csv", cut))
                .isInstanceOf(InputException.class)
                .hasMessage("k.csv:" + lines(cut) + ": the last row ends without a line break inside a quoted field:"
                        + " the file looks cut inside that row (an interrupted copy): copy it again, or delete the"
                        + " partial row");
    }
}
