package org.ncclharness.calibration.advice;

/** Each setting in plain words, for a caller of the calibration core that has no flags of its own. */
public final class PlainWording implements Wording {

    public static final PlainWording INSTANCE = new PlainWording();

    private PlainWording() {
    }

    @Override
    public String name(Setting setting) {
        return switch (setting) {
            case GPU_COUNT -> "the GPU count";
            case HOST_COUNT -> "the host count";
            case INTERCONNECT -> "the interconnect";
            case FABRIC_INSIDE_HOST -> "the fabric inside a host";
            case NETWORK_BETWEEN_HOSTS -> "the network between hosts";
            case DOMAIN_SIZE -> "the NVLink domain size";
            case NICS_PER_HOST -> "the NICs per host";
            case NIC_SPEED -> "one NIC's speed";
            case COLLECTIVE -> "the collective";
            case DATASET -> "a bundled dataset";
            case MODEL -> "a model";
            case CALIBRATION -> "a calibration report";
            case BASELINE -> "a baseline run";
            case EXPECTED_BUSBW -> "the expected busbw";
            case FAIL_BELOW -> "the FAIL threshold";
            case BANDWIDTH -> "the ring's bandwidth";
            case STEP_LATENCY -> "the ring's step latency";
            // nccl-tests' own names for its sizes and timing
            case MIN_BYTES -> "minbytes";
            case MAX_BYTES -> "maxbytes";
            case STEP_FACTOR -> "stepfactor";
            case STEP_BYTES -> "stepbytes";
            case GPUS_PER_THREAD -> "ngpus";
            case PER_ITERATION_TIMING -> "per_iter_timing";
            case SWEEP_JSON -> "a JSON output";
            case ALGORITHMS -> "a list of algorithms";
            case NO_REPLAY -> "measuring instead of replaying";
            case REPLAY -> "a replay";
            case KEEP_GLITCHES -> "keeping glitches";
            case JOINT -> "the joint fit";
            case ALL_RUNS -> "the joint pick on every run";
            case GRID_POINTS -> "the grid's points per axis";
            case GRID_RANGES -> "per-parameter grid";
            case VERBOSE -> "the detailed output";
            case REPORT_JSON -> "a JSON report";
            case REPORT_FOLDER -> "a report folder";
            case MARKDOWN -> "a Markdown output";
            case CSV -> "a CSV output";
            case OVERWRITE -> "permission to overwrite";
        };
    }

    @Override
    public String usage(Setting setting) {
        return name(setting);
    }
}
