package org.ncclharness.calibration.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.fit.twotier.JointGroups;
import org.ncclharness.calibration.hardware.ChipProfile;
import org.ncclharness.calibration.hardware.Interconnect;
import org.ncclharness.calibration.hardware.Topology;
import org.ncclharness.calibration.nccl.GraphDefaults;
import org.ncclharness.calibration.nccl.NcclTuning;
import org.ncclharness.calibration.nccl.ProtocolDataShares;

/**
 * The streaming binder gives what Jackson's data binding gives: the same values on every bundled file it reads, the
 * same words (JsonProblem's) for a damaged one.
 */
class JsonRecordsTest {

    private static final ObjectMapper BINDING = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    record NaiveUr(double value, String source) {
    }

    record Interconnects(String about, NaiveUr naiveUr, List<Interconnect> interconnects) {
    }

    record Topologies(String about, List<Topology> topologies) {
    }

    record Chips(String about, List<ChipProfile> chips) {
    }

    record Groups(String about, List<JointGroups.Group> groups) {
    }

    record Index(String schema, List<DatasetMetadata> datasets) {
    }

    record Inner(Integer size, List<String> names, Map<String, double[]> table, long count, boolean on) {
        Inner {
            if (size != null && size < 0) {
                throw new IllegalArgumentException("size must not be negative");
            }
        }
    }

    record Outer(Inner inner, List<Inner> more) {
    }

    private static <T> void sameAsDataBinding(String text, Class<T> layout) throws Exception {
        String viaRecords = BINDING.writeValueAsString(JsonRecords.read(text, layout));
        String viaBinding = BINDING.writeValueAsString(BINDING.readValue(text, layout));
        assertThat(viaRecords).isEqualTo(viaBinding).hasSizeGreaterThan(100);
    }

    private static String resource(String path) throws Exception {
        try (InputStream in = JsonRecordsTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyBundledFileItReadsBindsAsDataBindingBindsIt() throws Exception {
        sameAsDataBinding(resource("/hardware/interconnects.json"), Interconnects.class);
        sameAsDataBinding(resource("/hardware/topologies.json"), Topologies.class);
        sameAsDataBinding(resource("/hardware/chips.json"), Chips.class);
        sameAsDataBinding(resource("/twotier/joint-groups.json"), Groups.class);
        sameAsDataBinding(resource("/nccl/graph-defaults.json"), GraphDefaults.class);
        sameAsDataBinding(resource("/nccl/protocols.json"), ProtocolDataShares.class);
        for (String v : List.of("2.18", "2.22", "2.27", "2.30")) {
            sameAsDataBinding(resource("/nccl/tuning-" + v + ".json"), NcclTuning.class);
        }
        sameAsDataBinding(Files.readString(Path.of("../datasets/datasets.json")), Index.class);
    }

    @Test
    void missingFieldsAreNullOrZeroAndMapsKeepTheFilesOrder() throws Exception {
        Outer o = JsonRecords.read("{\"inner\": {\"table\": {\"b\": [1, 2.5], \"a\": []}}}", Outer.class);
        assertThat(o.more()).isNull();
        assertThat(o.inner().size()).isNull();
        assertThat(o.inner().count()).isZero();
        assertThat(o.inner().on()).isFalse();
        assertThat(o.inner().table()).containsOnlyKeys("b", "a");
        assertThat(o.inner().table().keySet()).containsExactly("b", "a");
        assertThat(o.inner().table().get("b")).containsExactly(1.0, 2.5);
    }

    private static String problem(String json) {
        return JsonProblem.describe(catchThrowableOfType(() -> JsonRecords.read(json, Outer.class),
                JsonProcessingException.class));
    }

    private static String bindingProblem(String json) {
        return JsonProblem.describe(catchThrowableOfType(() -> BINDING.readValue(json, Outer.class),
                JsonProcessingException.class));
    }

    @Test
    void aDamagedValueIsWordedAsDataBindingWordsIt() {
        for (String json : List.of("{\"inner\": {\"size\": []}}", "{\"inner\": {\"names\": {}}}",
                "{\"inner\": {\"size\": -1}}", "{\"more\": [{}, {\"size\": -2}]}", "{\"inner\": \"x\"}")) {
            assertThat(problem(json)).as(json).isEqualTo(bindingProblem(json));
        }
        assertThat(problem("{\"inner\": {\"size\": []}}")).isEqualTo("inner.size holds a value where a whole number"
                + " belongs");
        assertThat(problem("{\"more\": [{}, {\"size\": -2}]}")).isEqualTo("more[1]: size must not be negative");
        // a field the record does not have is named, as data binding names it
        assertThat(problem("{\"inner\": {\"colour\": 1}}")).isEqualTo(bindingProblem("{\"inner\": {\"colour\": 1}}"))
                .startsWith("inner.colour ");
        assertThat(problem("{\"inner\": ")).doesNotContain("com.fasterxml", "java.", "Exception");
        assertThat(problem("")).isEqualTo("a value is not of the kind that belongs there");
    }
}
