package org.ncclharness.harness.options;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.calibration.hardware.Nics;
import picocli.CommandLine.Option;

/**
 * {@code --nics-per-host}, {@code --nic-speed}: a host's NICs, for the network's line rate across hosts (every NIC
 * of a host at its rate). One picocli mixin for the commands that judge or draw a run against that line
 * ({@code calibrate}, {@code check}, {@code plot}, {@code bringup}), so they take the same flags in the same words.
 */
public final class NicOptions {

    @Option(names = "--nics-per-host", paramLabel = "N", description = "NICs per host: across hosts the line rate is"
            + " all of them together, and a bundled run with as many is preferred as the reference (another cluster's run; default:"
            + " the log's NCCL INFO 'NET/IB : Using' lines, a bundled dataset's metadata; a count other than theirs is"
            + " refused)")
    Integer perHost;

    @Option(names = "--nic-speed", paramLabel = "RATE", converter = BandwidthConverter.class,
            description = "one NIC's speed with its unit (100Gb/s, 400Gbps, 50GB/s), where the network has no fixed"
                    + " figure (EFA, TCP) or the NICs run at another speed than its usual (default: the network's"
                    + " figure in hardware/interconnects.json, a bundled dataset's metadata; a speed other than the"
                    + " metadata's is refused)")
    Double rateGBps;

    /** What the flags state; exit 2 for a count below 1 (the converter refuses a rate not above 0). */
    public Nics nics() {
        if (perHost != null && perHost < 1) {
            throw new HarnessException(ExitCode.USAGE, "invalid --nics-per-host " + perHost + ": expected 1 or more");
        }
        return new Nics(perHost, rateGBps);
    }
}
