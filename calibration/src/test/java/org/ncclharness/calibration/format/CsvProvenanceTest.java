package org.ncclharness.calibration.format;

import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.measure.InputException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.predict.PredictedSweep;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;

/**
 * The CSV says where its rows came from, on every row: a replay or a prediction read back from it is never stored
 * measurements, and the CSVs of earlier releases, which could not say, read as stored.
 */
class CsvProvenanceTest {

    private static final String OCI = "a100_allreduce_16gpu_2node_oci_roce";

    private static Sweep oci() {
        return DatasetCatalog.bundled().get(OCI).sweep();
    }

    @ParameterizedTest
    @EnumSource(SourceKind.class)
    void everyKindAndItsLabelReadBack(SourceKind kind) {
        // a label with the characters CSV must quote: a comma, a quote
        String label = kind.label() + " rows, from \"somewhere\"";
        Sweep s = oci().withProvenance(new Provenance(kind, "src", null, label));
        String csv = MeasurementCsv.toString(List.of(s));
        assertThat(csv.lines().skip(1)).allSatisfy(l -> assertThat(l).contains("," + kind.label() + ","));
        Sweep back = Inputs.parse("back.csv", csv).get(0);
        assertThat(back.provenance().kind()).isEqualTo(kind);
        assertThat(back.provenance().label()).isEqualTo(label);
        assertThat(back.provenance().source()).isEqualTo("back.csv");
        assertThat(back.rows()).isEqualTo(s.rows());
    }

    @Test
    void theHeaderNamesBothProvenanceColumnsLast() {
        assertThat(MeasurementCsv.HEADER).endsWith(",ip_wrong,ip_error,provenance,provenance_label");
        assertThat(MeasurementCsv.toString(List.of(oci())).lines().skip(1).findFirst().orElseThrow())
                .endsWith(",dataset,dataset " + OCI + " (" + DatasetCatalog.bundled().get(OCI).metadata().sourceUrl()
                        + ")");
    }

    @Test
    void aCsvOfAnEarlierReleaseReadsAsStoredMeasurements() {
        String current = MeasurementCsv.toString(List.of(oci().withProvenance(new Provenance(SourceKind.REPLAY, OCI,
                OCI, Provenance.REPLAY_LABEL + OCI))));
        // the same rows as the release before the provenance columns wrote them
        String earlier = current.lines().map(l -> l.substring(0, nthComma(l, 16))).reduce("", (a, l) -> a + l + "\n");
        assertThat(earlier.lines().findFirst().orElseThrow()).endsWith(",ip_wrong,ip_error");
        Sweep back = Inputs.parse("old.csv", earlier).get(0);
        assertThat(back.provenance()).isEqualTo(Provenance.stored("old.csv"));
        assertThat(back.rows()).isEqualTo(oci().rows());
    }

    private static int nthComma(String line, int n) {
        int at = -1;
        for (int i = 0; i < n; i++) {
            at = line.indexOf(',', at + 1);
        }
        return at;
    }

    @Test
    void aProvenanceTheProjectDoesNotNameIsRefusedNamingItsLine() {
        String csv = MeasurementCsv.toString(List.of(oci()));
        String[] lines = csv.split("\n");
        lines[3] = lines[3].replace(",dataset,", ",measurd,");
        assertThatThrownBy(() -> Inputs.parse("k.csv", String.join("\n", lines)))
                .isInstanceOf(InputException.class)
                .hasMessage("k.csv:4: provenance 'measurd' is not one of measured, stored, dataset, replay, predicted,"
                        + " test-clock");
        lines[3] = lines[3].replaceFirst(",measurd,.*$", ",stored,");
        assertThatThrownBy(() -> Inputs.parse("k.csv", String.join("\n", lines)))
                .hasMessageStartingWith("k.csv:4: provenance_label is empty");
    }

    @Test
    void rowsOfAnotherProvenanceStartAnotherTable() {
        Sweep a = oci();
        Sweep replay = DatasetCatalog.bundled().get(OCI).replay();
        List<Sweep> back = Inputs.parse("two.csv", MeasurementCsv.toString(List.of(a, replay)));
        assertThat(back).extracting(s -> s.provenance().kind()).containsExactly(SourceKind.DATASET, SourceKind.REPLAY);
    }

    /** A prediction's label names the N and domains it was for: the CSV gives them back as its text table does. */
    @Test
    void aPredictionReadsBackWithTheScaleItWasPredictedFor() {
        PredictionModel pm = PredictionSources.dataset(OCI, null, HardwareFacts.bundled()).at(32, 4);
        Sweep p = PredictedSweep.of(pm, List.of(1L << 20, 1L << 24, 1L << 28), Hardware.unknown());
        Sweep fromCsv = Inputs.parse("p.csv", MeasurementCsv.toString(List.of(p))).get(0);
        java.io.StringWriter text = new java.io.StringWriter();
        NcclTestsTableWriter.write(new java.io.PrintWriter(text), p, List.of("# " + p.provenance().label()));
        Sweep fromText = Inputs.parse("p.txt", text.toString()).get(0);
        assertThat(fromCsv.provenance().kind()).isEqualTo(SourceKind.PREDICTED);
        assertThat(fromCsv.provenance().label()).isEqualTo(p.provenance().label()).isEqualTo(fromText.provenance()
                .label());
        assertThat(fromCsv.ranks()).isEqualTo(32);
        assertThat(fromCsv.hardware()).isEqualTo(fromText.hardware());
    }
}
