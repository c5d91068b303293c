package org.ncclharness.harness.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.export.TunerPick;

/**
 * Which inputs are one combination each of an {@code --algo/--proto} matrix: the JSON files {@code sweep --algo ...
 * --proto ... -J} writes, one per combination, each naming it in {@code nccl_harness.algorithm.requested_algo} and
 * {@code requested_proto} (both set: a combination that left either to NCCL is not a point of the matrix).
 */
final class MatrixCombinations {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MatrixCombinations() {
    }

    /** By calibration id (the file as named): the combination each matrix file ran. */
    static Map<String, TunerPick> of(List<Path> files) {
        Map<String, TunerPick> out = new LinkedHashMap<>();
        for (Path p : files) {
            combination(p).ifPresent(c -> out.put(p.toString(), c));
        }
        return out;
    }

    private static Optional<TunerPick> combination(Path p) {
        JsonNode doc;
        try {
            if (!Files.isRegularFile(p) || !startsLikeJson(p)) {
                return Optional.empty();
            }
            doc = JSON.readTree(p.toFile());
        } catch (IOException e) {
            // not JSON: a log or a CSV, which states no combination; calibrate has read it already
            return Optional.empty();
        }
        JsonNode algo = doc.path("nccl_harness").path("algorithm");
        return TunerPick.of(algo.path("requested_algo").textValue(), algo.path("requested_proto").textValue());
    }

    private static boolean startsLikeJson(Path p) throws IOException {
        try (var in = Files.newBufferedReader(p)) {
            int c;
            do {
                c = in.read();
            } while (c != -1 && Character.isWhitespace(c));
            return c == '{';
        }
    }
}
