package org.ncclharness.calibration.datasets;

import org.ncclharness.calibration.format.JsonProblem;
import org.ncclharness.calibration.format.JsonRecords;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.measure.Measurement;

/**
 * The bundled datasets: {@code datasets/datasets.json} plus one {@code <id>.csv} each. Inside the jar they are
 * resources under {@code /datasets/}, so the tool works from any folder; tests and {@code datasets import} can
 * also open the checked-out folder. Adding a dataset is a raw file, its CSV and its metadata entry.
 */
public final class DatasetCatalog {

    public static final String SCHEMA = "nccl-harness/datasets/1";
    private static volatile DatasetCatalog bundled;

    private final List<Dataset> datasets;

    private DatasetCatalog(List<Dataset> datasets) {
        this.datasets = List.copyOf(datasets);
    }

    /** The datasets inside the jar (loaded once). */
    public static DatasetCatalog bundled() {
        DatasetCatalog c = bundled;
        if (c == null) {
            synchronized (DatasetCatalog.class) {
                if (bundled == null) {
                    bundled = load(new ResourceSource());
                }
                c = bundled;
            }
        }
        return c;
    }

    /** The datasets of a checked-out {@code datasets/} folder. */
    public static DatasetCatalog fromDirectory(Path dir) {
        return load(name -> {
            Path p = dir.resolve(name);
            return Files.exists(p) ? Optional.of(Files.readString(p, StandardCharsets.UTF_8)) : Optional.empty();
        });
    }

    public List<Dataset> all() {
        return datasets;
    }

    public Optional<Dataset> find(String id) {
        return datasets.stream().filter(d -> d.id().equals(id)).findFirst();
    }

    /** The dataset with this id; an unknown id is bad input, and the message lists the known ones. */
    public Dataset get(String id) {
        return find(id).orElseThrow(() -> new InputException(id, 0, "no bundled dataset with this id; known ids: "
                + datasets.stream().map(Dataset::id).collect(Collectors.joining(", "))));
    }

    /** Reads metadata only, for callers that need no rows (and for the import command). */
    public static List<DatasetMetadata> readMetadata(String json, String file) {
        try {
            Index index = JsonRecords.read(json, Index.class);
            if (!SCHEMA.equals(index.schema())) {
                throw new InputException(file, 1, "expected \"schema\": \"" + SCHEMA + "\"");
            }
            return index.datasets() == null ? List.of() : index.datasets();
        } catch (JsonProcessingException e) {
            throw new InputException(file, e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    "not valid dataset metadata: " + JsonProblem.describe(e));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's layout. */
    private record Index(String schema, List<DatasetMetadata> datasets) {
    }

    private static DatasetCatalog load(Source source) {
        try {
            String json = source.read("datasets.json").orElseThrow(() ->
                    new InputException("datasets/datasets.json", 0, "missing; the build did not bundle the datasets"));
            List<Dataset> out = new ArrayList<>();
            for (DatasetMetadata m : readMetadata(json, "datasets/datasets.json")) {
                String csvName = m.id() + ".csv";
                Supplier<List<Measurement>> rows = () -> {
                    try {
                        String csv = source.read(csvName).orElseThrow(() -> new InputException("datasets/" + csvName,
                                0, "missing; regenerate it with: java -jar harness.jar datasets import datasets/raw/"
                                        + m.id() + ".txt"));
                        return MeasurementCsv.read("datasets/" + csvName, csv);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
                Supplier<List<String>> raw = () -> {
                    try {
                        return source.read("raw/" + m.id() + ".txt").map(t -> t.lines().toList()).orElse(List.of());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
                out.add(new Dataset(m, rows, raw));
            }
            out.sort(Comparator.comparing(Dataset::id));
            return new DatasetCatalog(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FunctionalInterface
    private interface Source {
        Optional<String> read(String name) throws IOException;
    }

    private static final class ResourceSource implements Source {
        @Override
        public Optional<String> read(String name) throws IOException {
            try (InputStream in = DatasetCatalog.class.getResourceAsStream("/datasets/" + name)) {
                return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
    }
}
