package org.ncclharness.calibration.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
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
                .map(RawDatasetTest::unlabelled)
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
            int at = leading(t);
            // The last row of an excerpt, cut short, keeps its whole tokens: all but the last, which the text
            // may end inside
            int whole = t.length < at + 8 ? t.length - 1 : t.length;
            assertHalf(m.outOfPlace(), t, at, whole);
            assertHalf(m.inPlace(), t, at + 4, whole);
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

    /** The line without launcher labels (Slurm, Open MPI, Ray, quoting), however many are chained. */
    private static String unlabelled(String l) {
        String s = l;
        for (String before = null; !s.equals(before); ) {
            before = s;
            s = s.replaceFirst("^\\s*(?:\\d+:(?: |$)|\\[\\d+,\\d+\\]<std(?:out|err)>:|\\([^()]*pid=\\d+[^()]*\\)|>(?: |$))", "");
        }
        return s.trim();
    }

    /**
     * Columns before the first half, from the row's own shape: an op name means a redop column, and a small
     * integer after it (or in its place) a root; a whole-microsecond time (520935) is no root.
     */
    private static int leading(String[] t) {
        boolean redop = Set.of("sum", "prod", "max", "min", "avg", "none", "premulsum", "mulsum").contains(t[3]);
        int base = redop ? 4 : 3;
        boolean root = t[base].matches("-1|\\d{1,3}");
        return base + (root ? 1 : 0);
    }

    /** The half's four values as the tokens from {@code at} give them; those at or past {@code whole} absent. */
    private static void assertHalf(Half h, String[] t, int at, int whole) {
        assertThat(h.timeUs()).isEqualTo(at < whole ? Double.valueOf(t[at]) : null);
        assertThat(h.algBwGBps()).isEqualTo(at + 1 < whole ? Double.valueOf(t[at + 1]) : null);
        assertThat(h.busBwGBps()).isEqualTo(at + 2 < whole ? Double.valueOf(t[at + 2]) : null);
        String check = at + 3 < whole ? t[at + 3] : "N/A";
        if (check.equals("N/A")) {
            assertThat(h.wrong()).isNull();
        } else if (check.contains("e")) {
            // the older error column: a maximum deviation, never a count of wrong elements
            assertThat(h.maxError()).isEqualTo(Double.parseDouble(check));
            assertThat(h.wrong()).isNull();
        } else {
            assertThat(h.wrong()).isEqualTo(Double.parseDouble(check));
        }
    }
}
