package org.ncclharness.calibration.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ncclharness.calibration.datasets.RawDataset;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Real logs from public repositories (each file names its URL), read as a user would hand them over, checked
 * against facts derived from the text by hand (their {@code .expect.json}, written without this reader):
 * table count, rows, sizes, the last row's numbers, the trailer as stated, the rank count, and the collective:
 * the true one where the log names it, else the true one or {@code unknown} with the true one among the
 * alternatives the reader names.
 */
class RealLogFixturesTest {

    private static final Path DIR = Path.of("src/test/resources/logs/real");
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> fixtures() throws IOException {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".txt"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void readsAsTheLogSays(String id) throws IOException {
        List<Sweep> sweeps = read(DIR, id);
        JsonNode expect = JSON.readTree(DIR.resolve(id + ".expect.json").toFile());
        JsonNode tables = expect.get("tables");
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(sweeps).as("tables").hasSize(tables.size());
        boolean named = expect.path("collectiveNamedInText").asBoolean();
        for (int i = 0; i < Math.min(sweeps.size(), tables.size()); i++) {
            Sweep s = sweeps.get(i);
            JsonNode t = tables.get(i);
            List<Measurement> rows = s.rows();
            String at = "table " + i + " ";
            soft.assertThat(rows).as(at + "rows").hasSize(t.get("rows").asInt());
            soft.assertThat(rows.get(0).sizeBytes()).as(at + "first size").isEqualTo(t.get("firstSizeBytes").asLong());
            Measurement last = rows.get(rows.size() - 1);
            soft.assertThat(last.sizeBytes()).as(at + "last size").isEqualTo(t.get("lastSizeBytes").asLong());
            if (t.hasNonNull("lastRowOopTimeUs")) {
                soft.assertThat(last.outOfPlace().timeUs()).as(at + "last time").isEqualTo(t.get("lastRowOopTimeUs").asDouble());
            }
            if (t.hasNonNull("lastRowOopBusBw")) {
                soft.assertThat(last.outOfPlace().busBwGBps()).as(at + "last busbw").isEqualTo(t.get("lastRowOopBusBw").asDouble());
            }
            soft.assertThat(s.trailer().outOfBounds()).as(at + "out of bounds")
                    .isEqualTo(t.hasNonNull("outOfBounds") ? t.get("outOfBounds").asText().strip() : null);
            soft.assertThat(s.trailer().avgBusBwGBps()).as(at + "average")
                    .isEqualTo(t.hasNonNull("avgBusBw") ? t.get("avgBusBw").asDouble() : null);
            if (expect.path("layout").asText().equals("error")) {
                soft.assertThat(rows).as(at + "error column read as error, never as #wrong")
                        .allSatisfy(m -> assertThat(m.outOfPlace().wrong()).isNull());
            }
            String truth = truth(expect, t, i);
            if (named) {
                soft.assertThat(s.collective().testName()).as(at + "collective").isEqualTo(truth);
            } else if (s.collective() == Collective.UNKNOWN) {
                soft.assertThat(String.join(" ", Note.texts(s.notes()))).as(at + "alternatives named").contains(truth);
            } else {
                soft.assertThat(s.collective().testName()).as(at + "collective from the rows").isEqualTo(truth);
            }
            if (expect.hasNonNull("ranks") && s.collective().known()) {
                soft.assertThat(s.ranks()).as(at + "ranks").isEqualTo(expect.get("ranks").asInt());
            }
        }
        soft.assertAll();
    }

    /**
     * A table its poster kept with the device line of the last rank alone ('#  Rank 1439 ... NVIDIA GB200', 20 NVL72
     * racks) is not of one rank: N stays unknown (its busbw/algbw fits any N from about 1380 to 1530), where the one
     * line once read as N = 1, and check then called it a single GPU that tested no link.
     */
    @org.junit.jupiter.api.Test
    void aDeviceListOfTheLastRankAloneLeavesNUnknown() throws IOException {
        List<Sweep> sweeps = read(DIR, "coll_gb200_nvl72_allreduce_1440rank_20racks_lastrankonly");
        assertThat(sweeps).singleElement().satisfies(s -> {
            assertThat(s.devices()).singleElement().satisfies(d -> assertThat(d.rank()).isEqualTo(1439));
            assertThat(s.ranks()).isNull();
            assertThat(s.collective()).isEqualTo(Collective.ALL_REDUCE);
        });
    }

    /**
     * A fixture's raw text read as a log, its lines numbered as in the file (the header's lines blank), so that a
     * message's file:line points into the fixture.
     */
    static List<Sweep> read(Path dir, String id) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve(id + ".txt"), StandardCharsets.UTF_8);
        RawDataset raw = RawDataset.parse(id + ".txt", lines);
        List<String> numbered = new ArrayList<>();
        for (int i = 1; i < raw.rawStart(); i++) {
            numbered.add("");
        }
        numbered.addAll(raw.raw());
        return new NcclTestsLogReader(id + ".txt", null).read(numbered);
    }

    private static String truth(JsonNode expect, JsonNode table, int i) {
        if (table.hasNonNull("collective")) {
            return table.get("collective").asText();
        }
        if (expect.has("trueCollectives")) {
            return expect.get("trueCollectives").get(i).asText();
        }
        return expect.get("trueCollective").asText();
    }
}
