package org.ncclharness.calibration.datasets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Collective;

/**
 * Checks {@code datasets/datasets.json} against the raw files it describes and against its own rules: one entry per
 * raw file, interconnect names from the shared vocabulary, a consistent domain split, and every unstated field named
 * in {@code missing}. The rule checks live in {@link #problems}; the last tests feed it broken entries so that each
 * rule is shown to fail when it should.
 */
class DatasetsJsonTest {

    /** Surefire runs in the module folder; the datasets live beside it. */
    private static final Path DATASETS = Path.of("..", "datasets");

    /** The interconnect vocabulary is the one hardware/interconnects.json defines: one list, one place. */
    private static final Set<String> INTERCONNECTS = Set.copyOf(
            org.ncclharness.calibration.hardware.HardwareFacts.bundled().vocabulary());

    private static final Set<String> FLAGS = Set.of("busbw-only", "time-derived", "partial", "gpu-count-inferred",
            "sizes-decoded", "mixed-configurations", "latency-only", "bandwidth-only", "algo-forced");

    /** Every collective the reader knows by name; a dataset's collective is never unknown. */
    private static final Set<String> COLLECTIVES = Arrays.stream(Collective.values()).filter(Collective::known)
            .map(Collective::testName).collect(Collectors.toSet());
    private static final Set<String> LIBRARIES = Set.of("nccl-tests", "rccl-tests");
    private static final Set<String> HALVES = Set.of("both", "out-of-place", "in-place");

    /** Fields that are lists (never null) rather than facts a source can lack. */
    private static final Set<String> BOOKKEEPING = Set.of("flags", "missing");

    /** The file's top level. Unknown properties and absent fields are errors (see {@link #MAPPER}). */
    record DatasetsFile(String schema, List<DatasetMetadata> datasets) {}

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static DatasetsFile file;

    @BeforeAll
    static void read() throws IOException {
        file = MAPPER.readValue(DATASETS.resolve("datasets.json").toFile(), DatasetsFile.class);
    }

    @Test
    void schemaIsNamed() {
        assertThat(file.schema()).isEqualTo("nccl-harness/datasets/1");
    }

    @Test
    void oneEntryPerRawFileAndViceVersa() throws IOException {
        Set<String> rawIds;
        try (Stream<Path> raw = Files.list(DATASETS.resolve("raw"))) {
            rawIds = raw.map(p -> p.getFileName().toString())
                    .filter(name -> name.endsWith(".txt"))
                    .map(name -> name.substring(0, name.length() - ".txt".length()))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(rawIds).isNotEmpty();
        assertThat(ids()).containsExactlyInAnyOrderElementsOf(rawIds);
    }

    @Test
    void idsAreSortedAndUnique() {
        List<String> ids = ids();
        assertThat(ids).doesNotHaveDuplicates();
        assertThat(ids).isSorted();
    }

    @Test
    void eachRawFileNamesItsOwnId() {
        for (String id : ids()) {
            String first = firstLine(DATASETS.resolve("raw").resolve(id + ".txt"));
            assertThat(first).as("first line of raw/%s.txt", id).isEqualTo("# Dataset: " + id);
        }
    }

    @Test
    void everyEntryFollowsTheRules() {
        List<String> all = new ArrayList<>();
        for (DatasetMetadata m : file.datasets()) {
            all.addAll(problems(m));
        }
        assertThat(all).isEmpty();
    }

    // The rule checks themselves must be able to fail: each case breaks one rule of a valid entry.

    @Test
    void rejectsAnInterconnectOutsideTheVocabulary() {
        DatasetMetadata m = valid();
        assertThat(problems(with(m, "intra", "NVLink 4"))).singleElement().asString().contains("intra");
        assertThat(problems(with(m, "inter", "InfiniBand"))).singleElement().asString().contains("inter");
    }

    @Test
    void rejectsADomainSplitThatDoesNotMultiplyToTheGpuCount() {
        assertThat(problems(with(valid(), "domains", 3))).singleElement().asString().contains("domainSize");
    }

    @Test
    void rejectsAnUnstatedFieldThatMissingDoesNotName() {
        assertThat(problems(with(valid(), "date", null))).singleElement().asString().contains("date");
        assertThat(problems(with(valid(), "nicGbps", null))).singleElement().asString().contains("nicGbps");
    }

    @Test
    void rejectsMissingNamingAFieldThatIsSetOrDoesNotExist() {
        DatasetMetadata m = valid();
        assertThat(problems(with(m, "missing", List.of("gpus")))).singleElement().asString().contains("gpus");
        assertThat(problems(with(m, "missing", List.of("rows")))).singleElement().asString().contains("rows");
    }

    @Test
    void acceptsUnforcedAlgorithmAndSingleDomainWithoutNetworkFacts() {
        DatasetMetadata single = new DatasetMetadata("x", "all_reduce", "nccl-tests", "NVIDIA H100", 8, 1, 8, 1,
                "NVLink4", null, null, null, "2.21.5", null, null, "float", "both", "https://example.org/x",
                "2024-01-01", List.of(), List.of(), "one node");
        assertThat(problems(single)).isEmpty();
        DatasetMetadata oneGpuPerHost = new DatasetMetadata("y", "all_gather", "nccl-tests", "NVIDIA H200", 2, 2, 1,
                2, null, "TCP", 1, 100.0, "2.25.1", null, null, "float", "both", "https://example.org/y",
                "2025-01-01", List.of(), List.of(), "one GPU per host");
        assertThat(problems(oneGpuPerHost)).isEmpty();
    }

    @Test
    void rejectsAForcedAlgorithmWithoutItsFlag() {
        assertThat(problems(with(valid(), "algo", "Ring"))).singleElement().asString().contains("algo-forced");
    }

    @Test
    void rejectsAFileWithAFieldLeftOut() {
        String noNotes = "{\"schema\":\"nccl-harness/datasets/1\",\"datasets\":[{\"id\":\"x\",\"collective\":"
                + "\"all_reduce\",\"library\":\"nccl-tests\",\"gpuModel\":null,\"gpus\":null,\"hosts\":null,"
                + "\"domainSize\":null,\"domains\":null,\"intra\":null,\"inter\":null,\"nicsPerHost\":null,"
                + "\"nicGbps\":null,\"ncclVersion\":null,\"algo\":null,\"proto\":null,\"dataType\":null,"
                + "\"halves\":\"both\",\"sourceUrl\":null,\"date\":null,\"flags\":[],\"missing\":[]}]}";
        assertThatThrownBy(() -> MAPPER.readValue(noNotes, DatasetsFile.class))
                .hasMessageContaining("notes");
    }

    /** Every way {@code m} breaks the rules of datasets.json, one line each; empty when it follows them. */
    static List<String> problems(DatasetMetadata m) {
        List<String> p = new ArrayList<>();
        String id = m.id();
        check(p, id, COLLECTIVES.contains(m.collective()), "collective " + m.collective());
        check(p, id, LIBRARIES.contains(m.library()), "library " + m.library());
        check(p, id, HALVES.contains(m.halves()), "halves " + m.halves());
        check(p, id, m.intra() == null || INTERCONNECTS.contains(m.intra()), "intra not in vocabulary: " + m.intra());
        check(p, id, m.inter() == null || INTERCONNECTS.contains(m.inter()), "inter not in vocabulary: " + m.inter());
        if (m.gpus() != null && m.domainSize() != null && m.domains() != null) {
            check(p, id, m.gpus() == m.domainSize() * m.domains(),
                    "gpus " + m.gpus() + " != domainSize " + m.domainSize() + " x domains " + m.domains());
        }
        for (String f : m.flags()) {
            check(p, id, FLAGS.contains(f), "unknown flag " + f);
        }
        check(p, id, (m.algo() != null) == m.hasFlag("algo-forced"), "algo " + m.algo() + " vs flag algo-forced");
        check(p, id, m.hasFlag("busbw-only") == m.hasFlag("time-derived"), "busbw-only without time-derived");
        check(p, id, m.notes() != null && !m.notes().isBlank() && m.notes().length() <= 200,
                "notes must be one line of at most 200 characters");
        check(p, id, m.notes() == null || !m.notes().contains("\n"), "notes must be one line");
        check(p, id, m.sourceUrl() == null || m.sourceUrl().startsWith("https://"), "sourceUrl " + m.sourceUrl());

        Set<String> fields = Arrays.stream(DatasetMetadata.class.getRecordComponents())
                .map(RecordComponent::getName).collect(Collectors.toSet());
        for (String name : m.missing()) {
            check(p, id, fields.contains(name) && !BOOKKEEPING.contains(name), "missing names no field: " + name);
            check(p, id, !fields.contains(name) || value(m, name) == null, "missing names a field that is set: " + name);
        }
        for (RecordComponent c : DatasetMetadata.class.getRecordComponents()) {
            String name = c.getName();
            if (BOOKKEEPING.contains(name) || notApplicable(m, name) || value(m, name) != null) {
                continue;
            }
            check(p, id, m.missing().contains(name), name + " is null but not listed in missing");
        }
        return p;
    }

    /**
     * A null that means "does not apply" rather than "the source does not say": an algorithm or protocol nobody
     * forced, the network of a single-domain run (or NICs of a single host), the intra-domain link of one-GPU domains.
     */
    private static boolean notApplicable(DatasetMetadata m, String field) {
        boolean oneDomain = Integer.valueOf(1).equals(m.domains());
        boolean oneHost = Integer.valueOf(1).equals(m.hosts());
        return switch (field) {
            case "algo", "proto" -> true;
            case "inter" -> oneDomain;
            case "nicsPerHost", "nicGbps" -> oneDomain || oneHost;
            case "intra" -> Integer.valueOf(1).equals(m.domainSize());
            default -> false;
        };
    }

    private static void check(List<String> problems, String id, boolean ok, String what) {
        if (!ok) {
            problems.add(id + ": " + what);
        }
    }

    private static Object value(DatasetMetadata m, String field) {
        try {
            return DatasetMetadata.class.getMethod(field).invoke(m);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no accessor " + field, e);
        }
    }

    /** A valid two-domain entry to break one rule at a time. */
    private static DatasetMetadata valid() {
        DatasetMetadata m = new DatasetMetadata("v", "all_reduce", "nccl-tests", "NVIDIA H100 80GB HBM3", 16, 2, 8, 2,
                "NVLink4", "IB-NDR", 8, 400.0, "2.26.2", null, null, "float", "both", "https://example.org/v",
                "2025-05", List.of(), List.of(), "two HGX nodes");
        assertThat(problems(m)).as("the valid entry itself").isEmpty();
        return m;
    }

    /** {@code m} with one field replaced, through the canonical constructor. */
    private static DatasetMetadata with(DatasetMetadata m, String field, Object replacement) {
        RecordComponent[] components = DatasetMetadata.class.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        boolean found = false;
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            boolean target = components[i].getName().equals(field);
            found |= target;
            args[i] = target ? replacement : value(m, components[i].getName());
        }
        assertThat(found).as("field " + field).isTrue();
        try {
            return DatasetMetadata.class.getDeclaredConstructor(types).newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> ids() {
        return file.datasets().stream().map(DatasetMetadata::id).toList();
    }

    private static String firstLine(Path path) {
        try (Stream<String> lines = Files.lines(path, StandardCharsets.UTF_8)) {
            return lines.findFirst().orElse("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
