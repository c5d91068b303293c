package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;

/** accuracy/clusters.json against the bundled catalogue and cross-scale groups. */
class ClustersTest {

    private final Clusters clusters = Clusters.bundled();
    private final DatasetCatalog catalog = DatasetCatalog.bundled();

    @Test
    void everyBundledMultiDomainRunIsInOneCluster() {
        List<String> multi = catalog.all().stream().filter(d -> d.metadata().multiDomain()).map(Dataset::id).toList();
        assertThat(multi).isNotEmpty();
        assertThat(multi).allSatisfy(id -> assertThat(clusters.of(id)).as(id).isPresent());
    }

    @Test
    void everyClusteredIdIsABundledDatasetAndEveryClusterSaysWhy() {
        assertThat(clusters.clusters()).allSatisfy(c -> {
            assertThat(c.reason()).as(c.name()).isNotBlank();
            assertThat(c.datasets()).allSatisfy(id -> assertThat(catalog.find(id)).as(id).isPresent());
        });
    }

    @Test
    void everyCrossScaleGroupIsInOneCluster() throws IOException {
        JsonNode groups;
        try (InputStream in = getClass().getResourceAsStream("/accuracy/cross-scale.json")) {
            groups = new ObjectMapper().readTree(in).get("groups");
        }
        assertThat(groups).isNotEmpty();
        for (JsonNode g : groups) {
            List<Optional<String>> of = new ArrayList<>();
            g.get("datasets").forEach(id -> of.add(clusters.of(id.asText())));
            assertThat(of).as(g.get("name").asText()).doesNotContain(Optional.empty());
            assertThat(of.stream().distinct()).as(g.get("name").asText()).hasSize(1);
        }
    }

    @Test
    void aDatasetInTwoClustersIsRejectedNamingBoth() {
        assertThatThrownBy(() -> new Clusters(List.of(new Clusters.Cluster("one", "r", List.of("d")),
                new Clusters.Cluster("two", "r", List.of("d")))))
                .hasMessageContaining("dataset d is in cluster 'one' and in 'two'");
    }

    @Test
    void aClusterWithoutAReasonIsRejected() throws IOException {
        JsonNode root = new ObjectMapper().readTree("{\"clusters\": [{\"name\": \"x\", \"datasets\": [\"d\"]}]}");
        assertThatThrownBy(() -> Clusters.parse(root)).hasMessageContaining("needs a name, a reason");
    }
}
