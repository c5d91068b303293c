package org.ncclharness.calibration.datasets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.measure.InputException;

/** The catalog reads every entry's metadata at once and each CSV only when its rows are first asked for. */
class DatasetCatalogTest {

    private static final Path DATASETS = Path.of("..", "datasets");
    private static final String GOOD = "h100_allreduce_8gpu_azure_ndv5";
    private static final String BROKEN = "mi300x_allreduce_16gpu_2node_rccl_hisohara";

    /** A datasets.json in {@code dir} with the bundled entries of {@code ids} only. */
    private static void metadataOf(Path dir, String... ids) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(DATASETS.resolve("datasets.json").toFile());
        ArrayNode kept = json.createArrayNode();
        root.withArray("datasets").forEach(n -> {
            if (java.util.List.of(ids).contains(n.path("id").asText())) {
                kept.add(n);
            }
        });
        root.set("datasets", kept);
        json.writeValue(dir.resolve("datasets.json").toFile(), root);
    }

    @Test
    void aDamagedCsvFailsOnlyTheCommandThatReadsItsRows(@TempDir Path dir) throws IOException {
        metadataOf(dir, GOOD, BROKEN);
        Files.copy(DATASETS.resolve(GOOD + ".csv"), dir.resolve(GOOD + ".csv"));
        Files.writeString(dir.resolve(BROKEN + ".csv"), Files.readString(DATASETS.resolve(BROKEN + ".csv"))
                .replaceFirst("\n(all_reduce,1024,)", "\nall_reduce,one kilobyte,"));

        DatasetCatalog catalog = DatasetCatalog.fromDirectory(dir);

        assertThat(catalog.all()).extracting(Dataset::id).containsExactly(GOOD, BROKEN);
        assertThat(catalog.get(GOOD).rows()).isNotEmpty();
        assertThatThrownBy(() -> catalog.get(BROKEN).rows()).isInstanceOf(InputException.class)
                .hasMessageContaining("datasets/" + BROKEN + ".csv");
    }

    @Test
    void aMissingCsvIsNamedWithTheCommandThatRemakesIt(@TempDir Path dir) throws IOException {
        metadataOf(dir, GOOD);

        Dataset d = DatasetCatalog.fromDirectory(dir).get(GOOD);

        assertThatThrownBy(d::rows).isInstanceOf(InputException.class)
                .hasMessageContaining("missing; regenerate it with: java -jar harness.jar datasets import datasets/raw/"
                        + GOOD + ".txt");
    }
}
