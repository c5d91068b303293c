package org.ncclharness.calibration.accuracy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The physical systems the bundled runs come from ({@code accuracy/clusters.json}): the leave-one-cluster-out scores
 * hold a whole cluster out, so that no choice made from other runs is made on runs of the system being scored. The
 * datasets' metadata names no system, so the file gives each cluster with its reason.
 *
 * @param clusters file order
 */
public record Clusters(List<Cluster> clusters) {

    static final String RESOURCE = "/accuracy/clusters.json";

    /** One system: its name, why its runs are one system, and their dataset ids. */
    public record Cluster(String name, String reason, List<String> datasets) {
        public Cluster {
            datasets = List.copyOf(datasets);
        }
    }

    /** Checks that no dataset is in two clusters and no name is used twice. */
    public Clusters {
        clusters = List.copyOf(clusters);
        Map<String, String> seen = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (Cluster c : clusters) {
            if (names.contains(c.name())) {
                throw new IllegalArgumentException(RESOURCE + ": cluster '" + c.name() + "' is named twice; give"
                        + " each cluster its own name");
            }
            names.add(c.name());
            for (String id : c.datasets()) {
                String before = seen.putIfAbsent(id, c.name());
                if (before != null) {
                    throw new IllegalArgumentException(RESOURCE + ": dataset " + id + " is in cluster '" + before
                            + "' and in '" + c.name() + "'; a run belongs to one system: keep it in one");
                }
            }
        }
    }

    public static Clusters bundled() {
        try (InputStream in = Clusters.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is missing from the classpath");
            }
            return parse(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Clusters parse(JsonNode root) {
        List<Cluster> out = new ArrayList<>();
        for (JsonNode c : root.path("clusters")) {
            List<String> ids = new ArrayList<>();
            c.path("datasets").forEach(id -> ids.add(id.asText()));
            if (c.path("name").asText().isBlank() || c.path("reason").asText().isBlank() || ids.isEmpty()) {
                throw new IllegalArgumentException(RESOURCE + ": cluster " + c + " needs a name, a reason and at"
                        + " least one dataset");
            }
            out.add(new Cluster(c.get("name").asText(), c.get("reason").asText(), ids));
        }
        return new Clusters(out);
    }

    /** The cluster holding a dataset, if any. */
    public Optional<String> of(String datasetId) {
        return clusters.stream().filter(c -> c.datasets().contains(datasetId)).map(Cluster::name).findFirst();
    }
}
