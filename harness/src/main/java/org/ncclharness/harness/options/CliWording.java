package org.ncclharness.harness.options;

import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.advice.Wording;

/**
 * Every {@link Setting} the calibration core asks for, as this command line's flag: the one place a flag the core's
 * messages name is spelled, installed by {@link Main} before any command runs. The switch has no default, so a new
 * setting does not compile until it is worded here.
 */
public final class CliWording implements Wording {

    public static final CliWording INSTANCE = new CliWording();

    /** A flag and the label of what it takes, empty for a switch. */
    private record Flag(String name, String argument) {
    }

    private CliWording() {
    }

    /** Makes every later message of the calibration core name this command line's flags. */
    public static void install() {
        Advice.install(INSTANCE);
    }

    private static Flag flag(Setting s) {
        return switch (s) {
            case GPU_COUNT -> new Flag("--gpus", "N");
            case HOST_COUNT -> new Flag("--nodes", "N");
            case INTERCONNECT -> new Flag("--interconnect", "NAME");
            case FABRIC_INSIDE_HOST -> new Flag("--intra", "NAME");
            case NETWORK_BETWEEN_HOSTS -> new Flag("--inter", "NAME");
            case DOMAIN_SIZE -> new Flag("--domain-size", "G");
            case NICS_PER_HOST -> new Flag("--nics-per-host", "N");
            case NIC_SPEED -> new Flag("--nic-speed", "RATE");
            case COLLECTIVE -> new Flag("--collective", "NAME");
            case DATASET -> new Flag("--dataset", "ID");
            case MODEL -> new Flag("--model", "NAME");
            case CALIBRATION -> new Flag("--calibration", "FILE");
            case BASELINE -> new Flag("--baseline", "ID|FILE|DIR");
            case EXPECTED_BUSBW -> new Flag("--expect-busbw", "GB/s");
            case FAIL_BELOW -> new Flag("--fail-below", "PCT");
            case BANDWIDTH -> new Flag("--bandwidth", "BW");
            case STEP_LATENCY -> new Flag("--step-latency", "TIME");
            case MIN_BYTES -> new Flag("-b", "SIZE");
            case MAX_BYTES -> new Flag("-e", "SIZE");
            case STEP_FACTOR -> new Flag("-f", "F");
            case STEP_BYTES -> new Flag("-i", "SIZE");
            case GPUS_PER_THREAD -> new Flag("-g", "N");
            case PER_ITERATION_TIMING -> new Flag("-I", "0/1");
            case SWEEP_JSON -> new Flag("-J", "FILE");
            case ALGORITHMS -> new Flag("--algo", "LIST");
            case NO_REPLAY -> new Flag("--no-replay", "");
            case REPLAY -> new Flag("--replay", "");
            case KEEP_GLITCHES -> new Flag("--keep-glitches", "");
            case JOINT -> new Flag("--joint", "");
            case ALL_RUNS -> new Flag("--all-runs", "");
            case GRID_POINTS -> new Flag("--grid-points", "R");
            // one of --grid-beta-ib, --grid-ell-nv, ...: the family of ranges
            case GRID_RANGES -> new Flag("--grid-*", "MIN:MAX:POINTS");
            case VERBOSE -> new Flag("--verbose", "");
            case REPORT_JSON -> new Flag("--json", "FILE");
            case REPORT_FOLDER -> new Flag("--report", "DIR");
            case MARKDOWN -> new Flag("--markdown", "FILE");
            case CSV -> new Flag("--csv", "FILE");
            case OVERWRITE -> new Flag("--force", "");
        };
    }

    @Override
    public String name(Setting setting) {
        return flag(setting).name();
    }

    @Override
    public String usage(Setting setting) {
        Flag f = flag(setting);
        return f.argument().isEmpty() ? f.name() : f.name() + " " + f.argument();
    }
}
