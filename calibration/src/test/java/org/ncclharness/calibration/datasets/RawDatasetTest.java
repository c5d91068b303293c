package org.ncclharness.calibration.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;

class RawDatasetTest {

    static final Path RAW = Path.of("../datasets/raw");

    static Stream<Path> rawFiles() throws IOException {
        try (Stream<Path> s = Files.list(RAW)) {
            return s.filter(p -> p.toString().endsWith(".txt")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("rawFiles")
    void everyRawFileParsesToTheNumbersOfItsLines(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        RawDataset raw = RawDataset.parse(file.toString(), lines);
        List<Measurement> rows = raw.rows(file.toString());
        assertThat(rows).as(file.toString()).isNotEmpty();
        // Every row must appear in the raw text with exactly its values: find each row's source line by its
        // printed size and compare every field with the text it came from.
        List<String[]> sourceRows = raw.raw().stream()
                .map(l -> l.replaceFirst("^\\s*(?:\\d+:(?: |$)|\\[\\d+,\\d+\\]<std(?:out|err)>:)", "").trim())
                .filter(l -> !l.startsWith("#") && !l.startsWith("|"))
                .map(l -> l.split("\\s+"))
                .filter(t -> t.length >= 6 && t[0].matches("\\d+") && t[1].matches("\\d+") && t[2].matches("[a-z0-9]+"))
                .toList();
        if (sourceRows.isEmpty()) {
            return; // the markdown busbw tables: decoded sizes, checked in their own test
        }
        assertThat(rows).hasSameSizeAs(sourceRows);
        for (int i = 0; i < rows.size(); i++) {
            Measurement m = rows.get(i);
            String[] t = sourceRows.get(i);
            assertThat(Long.toString(m.sizeBytes())).isEqualTo(t[0]);
            assertThat(Long.toString(m.count())).isEqualTo(t[1]);
            assertThat(m.type()).isEqualTo(t[2]);
            int at = t.length % 2 == 1 ? 5 : 4; // odd token counts carry the root column (nccl-tests >= 2.13)
            if (t.length < at + 4) {
                // the last row of an excerpt, cut short: its whole tokens are kept, the last may be cut itself
                at = t[4].matches("-?\\d+") ? 5 : 4;
                assertThat(m.outOfPlace().timeUs()).isEqualTo(Double.parseDouble(t[at]));
                assertThat(m.inPlace().isEmpty()).isTrue();
                continue;
            }
            assertHalf(m.outOfPlace(), t, at);
            if (t.length >= at + 8) {
                assertHalf(m.inPlace(), t, at + 4);
            } else if (t.length > at + 5) {
                // cut inside the in-place half: its whole tokens are kept, the last one may be cut itself
                assertThat(m.inPlace().timeUs()).isEqualTo(Double.parseDouble(t[at + 4]));
            } else {
                assertThat(m.inPlace().isEmpty()).isTrue();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("rawFiles")
    void theCommittedCsvIsExactlyWhatTheImporterMakes(Path file) throws IOException {
        DatasetImporter.Imported imported = DatasetImporter.importRaw(file);
        Path csv = RAW.resolveSibling(imported.id() + ".csv");
        assertThat(csv).as("regenerate with: java -jar harness/target/harness.jar datasets import "
                + "datasets/raw/*.txt --out datasets --force").exists();
        assertThat(Files.readString(csv)).isEqualTo(imported.csv());
    }

    @org.junit.jupiter.api.Test
    void busBwTablesDecodeTheirRoundedLabelsAsPowersOfTwo() throws IOException {
        Path file = RAW.resolve("h200_allreduce_8gpu_azure_ndv5.txt");
        List<Measurement> rows = RawDataset.parse(file.toString(), Files.readAllLines(file)).rows(file.toString());
        assertThat(rows).hasSize(24);
        for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i).sizeBytes()).isEqualTo(1024L << i);
            assertThat(rows.get(i).outOfPlace().isEmpty()).isTrue();
            assertThat(rows.get(i).inPlace().timeUs()).isNull();
        }
        assertThat(rows.get(6).inPlace().busBwGBps()).isEqualTo(3.72); // printed as "65K | 3.72"
    }

    private static void assertHalf(Half h, String[] t, int at) {
        assertThat(h.timeUs()).isEqualTo(Double.parseDouble(t[at]));
        assertThat(h.algBwGBps()).isEqualTo(Double.parseDouble(t[at + 1]));
        assertThat(h.busBwGBps()).isEqualTo(Double.parseDouble(t[at + 2]));
        if (t[at + 3].equals("N/A")) {
            assertThat(h.wrong()).isNull();
        } else if (t[at + 3].contains("e")) {
            // the older error column: a maximum deviation, never a count of wrong elements
            assertThat(h.maxError()).isEqualTo(Double.parseDouble(t[at + 3]));
            assertThat(h.wrong()).isNull();
        } else {
            assertThat(h.wrong()).isEqualTo(Double.parseDouble(t[at + 3]));
        }
    }
}
