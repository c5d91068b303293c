package org.ncclharness.calibration.advice;

/**
 * What a user can state about a run, or choose for a command, when a message of the calibration core asks for it.
 * The core names the setting; whoever runs the core words it ({@link Wording}): the command line as its flag,
 * any other caller in plain words. So the core names no flag, and a flag is renamed in one place.
 */
public enum Setting {

    // facts about a run that its input may not state (each one field of resolve.Hints)
    GPU_COUNT,
    HOST_COUNT,
    /** One fabric: across hosts the network between them, on one host the fabric inside it. */
    INTERCONNECT,
    FABRIC_INSIDE_HOST,
    NETWORK_BETWEEN_HOSTS,
    DOMAIN_SIZE,
    NICS_PER_HOST,
    NIC_SPEED,
    COLLECTIVE,

    // what a command is given to compare with or predict from
    DATASET,
    MODEL,
    CALIBRATION,
    BASELINE,
    EXPECTED_BUSBW,
    FAIL_BELOW,
    /** The raw ring formula's B. */
    BANDWIDTH,
    /** The raw ring formula's L. */
    STEP_LATENCY,

    // the sizes and timing of a sweep (nccl-tests' own options, which the sweep takes as they are)
    MIN_BYTES,
    MAX_BYTES,
    STEP_FACTOR,
    STEP_BYTES,
    GPUS_PER_THREAD,
    PER_ITERATION_TIMING,
    SWEEP_JSON,
    ALGORITHMS,
    /** Measure, where no GPU is: no replay of stored numbers. */
    NO_REPLAY,
    /** Replay stored numbers instead of measuring. */
    REPLAY,

    // how calibrate fits and what it writes
    KEEP_GLITCHES,
    JOINT,
    /** predict from a joint calibration with the pick fitted on every run, not the runs nearest the scale. */
    ALL_RUNS,
    GRID_POINTS,
    GRID_RANGES,
    VERBOSE,
    REPORT_JSON,
    REPORT_FOLDER,

    // outputs
    MARKDOWN,
    CSV,
    OVERWRITE
}
