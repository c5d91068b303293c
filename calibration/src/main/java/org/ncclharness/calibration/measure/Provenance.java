package org.ncclharness.calibration.measure;

/**
 * Where a sweep came from; it travels with the data into every output.
 *
 * @param kind       measured now, stored, dataset, replay or predicted
 * @param source     a file path, a dataset id, or a model description
 * @param datasetId  the bundled dataset id when there is one, else null
 * @param label      one human line, e.g. {@code replay of stored measurements: h100_... (https://...)}
 */
public record Provenance(SourceKind kind, String source, String datasetId, String label) {

    public static Provenance stored(String path) {
        return new Provenance(SourceKind.STORED, path, null, "stored measurements: " + path);
    }
}
