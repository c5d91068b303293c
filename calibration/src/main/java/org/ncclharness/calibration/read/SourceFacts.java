package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.JsonProblem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.format.Echo;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;

/**
 * What an input states about its run besides its tables: the facts of a log's lines, the network NCCL's lines name,
 * the NET/IB devices they list, a bundled dataset's metadata, and the diagnosis of NCCL's lines where a JSON keeps
 * it. The project's JSON keeps all of it as typed fields, not the log's text ({@code nccl_harness.source}, one field
 * per component, named as here), so that reading a run's JSON back gives the document its log gave: the same NICs,
 * the same network, the same verdict.
 *
 * @param log        what the text's lines say besides the tables ({@link LogFacts#none()} without text)
 * @param network    the network between hosts NCCL's lines (or the job's environment) name, null where none does
 * @param nicDevices the NET/IB devices NCCL's lines list (device:port/link), in order seen
 * @param stated     what a bundled dataset's metadata states, {@link RunDocument.Stated#NONE} for a file
 * @param diagnosis  the diagnosis of NCCL's lines as a JSON keeps it, null where the input keeps none (a log's is
 *                   read from its lines)
 */
public record SourceFacts(LogFacts log, LogNetwork.Named network, List<String> nicDevices, RunDocument.Stated stated,
                          LogDiagnosis diagnosis) {

    /** An input that states nothing besides its rows: a CSV, nccl-tests' own JSON, a JSON of an earlier release. */
    public static final SourceFacts NONE = new SourceFacts(LogFacts.none(), null, List.of(), RunDocument.Stated.NONE,
            null);

    /** Absent fields stay absent: a fact the input does not state is not written as one. */
    private static final ObjectMapper MAPPER = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

    public SourceFacts {
        log = log == null ? LogFacts.none() : log;
        nicDevices = nicDevices == null ? List.of() : List.copyOf(nicDevices);
        stated = stated == null ? RunDocument.Stated.NONE : stated;
    }

    /** The facts of a text's lines, read here once, and what a dataset's metadata states. */
    public static SourceFacts of(List<String> lines, RunDocument.Stated stated) {
        if (lines.isEmpty()) {
            return new SourceFacts(LogFacts.none(), null, List.of(), stated, null);
        }
        return LineFacts.of(lines).source(stated);
    }

    /** These facts with the diagnosis a JSON is to keep. */
    public SourceFacts withDiagnosis(LogDiagnosis kept) {
        return new SourceFacts(log, network, nicDevices, stated, kept);
    }

    /**
     * The {@code nccl_harness.source} object, empty where nothing is stated (a JSON of a CSV is then written as it
     * was before the object existed).
     */
    public Optional<JsonNode> toJson() {
        if (equals(NONE)) {
            return Optional.empty();
        }
        ObjectNode tree = MAPPER.valueToTree(this);
        if (stated.equals(RunDocument.Stated.NONE)) {
            tree.remove("stated");
        }
        return Optional.of(tree);
    }

    /**
     * The facts a JSON keeps, {@link #NONE} where it keeps none.
     *
     * @param where the object's path in the file, for the message ({@code nccl_harness.source})
     */
    public static SourceFacts fromJson(String file, JsonNode source, String where) {
        if (source == null || source.isMissingNode() || source.isNull()) {
            return NONE;
        }
        try {
            return MAPPER.treeToValue(source, SourceFacts.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String why = e instanceof JsonProcessingException j ? JsonProblem.describe(j)
                    : Echo.quote(String.valueOf(e.getMessage()));
            throw new InputException(file, 0, where + " is not valid: " + why);
        }
    }
}
