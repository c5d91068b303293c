package org.ncclharness.calibration.calibrate;

import org.ncclharness.calibration.format.JsonProblem;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.ModelConfiguration;

/**
 * A model as a calibration report holds it: its {@code form} and its {@code configuration}, written by
 * {@link CalibrationJson} and read back by {@link CalibrationFile}. The form names the record the configuration
 * binds to ({@link ModelConfiguration}'s subtypes), so what is read back is typed, never a map read by key.
 */
final class ModelJson {

    /** Keys a configuration does not bind are left alone, as reports have always been read. */
    private static final ObjectReader READER = CalibrationJson.MAPPER.readerFor(Stored.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The forms a report may name: the names {@link ModelConfiguration} gives its records. */
    private static final List<String> FORMS = Arrays.stream(ModelConfiguration.class.getAnnotation(JsonSubTypes.class)
            .value()).map(JsonSubTypes.Type::name).toList();

    private ModelJson() {
    }

    /** Puts the model's {@code form} and {@code configuration} on its node, in that order. */
    static void put(ObjectNode node, CostModel model) {
        node.put("form", model.form());
        node.set("configuration", CalibrationJson.MAPPER.valueToTree(model.configuration()));
    }

    /**
     * The model a node's {@code form} and {@code configuration} describe.
     *
     * @throws IllegalArgumentException where the form is unknown or the configuration is not one of it
     */
    static CostModel read(JsonNode node) {
        Stored stored;
        try {
            stored = READER.readValue(node);
        } catch (InvalidTypeIdException e) {
            throw new IllegalArgumentException("unknown model form " + e.getTypeId() + " (known: " + FORMS + ")");
        } catch (JsonProcessingException e) {
            // a record's own refusal ("hops per step must be at least 1") says more than where Jackson stopped
            Throwable cause = e.getCause();
            throw new IllegalArgumentException(cause != null && cause.getMessage() != null ? cause.getMessage()
                    : JsonProblem.describe(e), e);
        } catch (IOException e) {
            throw new IllegalStateException("reading a JSON tree in memory", e);
        }
        return stored.configuration().model();
    }

    /** A model's node as far as rebuilding it goes: the {@code form} beside it names the configuration's type. */
    private record Stored(@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXTERNAL_PROPERTY,
            property = "form") ModelConfiguration configuration) {
    }
}
