package org.ncclharness.calibration.read;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.InputException;

/**
 * Why a JSON that the sweep reader refused holds no run, where its shape says more than "no results": a
 * calibration report (calibrate's JSON, which goes where a command takes a calibration), or a run whose
 * {@code results} array is empty (nccl-tests writes one when the run stopped before its first size). Looked at
 * only after the reader refused the text, so a run is parsed once.
 */
final class JsonNotARun {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonNotARun() {
    }

    /** The better refusal, or empty where the shape says nothing more than the reader's own. */
    static Optional<InputException> explain(String file, String body) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        if (root == null || !root.isObject()) {
            return Optional.empty();
        }
        if (root.path("datasets").isArray() && !root.has("results") && !root.has("sweeps")) {
            return Optional.of(new InputException(file, 0, "is a calibration report (calibrate's JSON: models, not"
                    + " measurements), not a run: give it as " + Advice.usage(Setting.CALIBRATION) + " to compare"
                    + " a run with its model or predict from it, and a run (a log, CSV, sweep JSON or dataset id)"
                    + " as the input"));
        }
        if (root.path("results").isArray() && root.path("results").isEmpty()) {
            return Optional.of(new InputException(file, 0, "the \"results\" array is empty: the run wrote no size"
                    + " (it stopped before its first one, or the file was cut); its log's NCCL lines may say why"));
        }
        return Optional.empty();
    }
}
