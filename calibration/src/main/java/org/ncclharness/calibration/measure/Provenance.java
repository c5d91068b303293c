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

    /**
     * How a replay's label starts. The nccl-tests table has no field for provenance, only the heading line before
     * it, so its reader knows a replay by this start (as it knows a prediction by {@code predicted by }).
     */
    public static final String REPLAY_LABEL = "replay of stored measurements: ";

    /**
     * How the label of a run timed on a test clock ({@link SourceKind#TEST_CLOCK}) starts: the table's heading line
     * says it, and its reader knows the run by it.
     */
    public static final String TEST_CLOCK_LABEL = "NOT MEASURED, timed by a test clock: ";

    /** How the user names standard input wherever a file goes; the label says it in words. */
    public static final String STANDARD_INPUT = "-";

    /** Stored measurements read from {@code path}, or from standard input where it is {@value #STANDARD_INPUT}. */
    public static Provenance stored(String path) {
        return new Provenance(SourceKind.STORED, path, null, "stored measurements: "
                + (path.equals(STANDARD_INPUT) ? "standard input" : path));
    }
}
