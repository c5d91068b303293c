package org.ncclharness.calibration.measure;

import java.util.Arrays;
import java.util.Optional;

/**
 * Where a sweep's numbers came from. Every writer prints it, so a replay or a prediction can never pass for a
 * new measurement.
 */
public enum SourceKind {
    /** Measured by this harness, now, on this job's GPUs. */
    MEASURED("measured"),
    /** A stored nccl-tests/rccl-tests log, CSV or JSON read from disk. */
    STORED("stored"),
    /** A bundled dataset shown as it was published. */
    DATASET("dataset"),
    /** A bundled dataset replayed by {@code sweep} on a machine without a GPU: not a new measurement. */
    REPLAY("replay"),
    /** Computed by a cost model: not a measurement at all. */
    PREDICTED("predicted"),
    /**
     * Timed by this harness on a clock that is not the GPU's: the test stand-ins' virtual clock, read through the
     * {@code -Dnccl-harness.loop-clock-file} seam. A stand-in's arithmetic, not a measurement.
     */
    TEST_CLOCK("test-clock");

    private final String label;

    SourceKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The kind whose {@link #label()} this is (the project CSV's {@code provenance} column), if one is. */
    public static Optional<SourceKind> byLabel(String label) {
        return Arrays.stream(values()).filter(k -> k.label.equals(label)).findFirst();
    }

    /**
     * The labels, in order, as a message lists them: {@code measured, stored, dataset, replay, predicted,
     * test-clock}.
     */
    public static String labels() {
        return String.join(", ", Arrays.stream(values()).map(SourceKind::label).toList());
    }

    /** True for the kinds whose numbers were not measured in this run. */
    public boolean isMeasuredNow() {
        return this == MEASURED;
    }

    /**
     * True for the kinds whose collectives ran in this run, measured or timed on a test clock: the buffers NCCL
     * wrote were checked whatever clock timed them, so their {@code #wrong} is this run's.
     */
    public boolean ranNow() {
        return this == MEASURED || this == TEST_CLOCK;
    }
}
