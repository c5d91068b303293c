package org.ncclharness.harness;

import java.util.Optional;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.io.InputException;
import picocli.CommandLine.Option;

/**
 * {@code --gpus}, {@code --nodes}, {@code --interconnect}: what a run was, for the files that do not say it (an
 * nccl-tests log without '# Using devices' lines, a CSV without a hardware column). One picocli mixin, so every
 * command that reads runs offers the same three flags in the same words; a flag never overrides what the file
 * says (the commands reject a contradiction). Null where not given.
 */
public final class RunMetadataOptions {

    @Option(names = "--gpus", paramLabel = "N", description = "GPU (rank) count, for files that do not say")
    Integer gpus;

    @Option(names = "--nodes", paramLabel = "N", description = "node count, for files that do not say")
    Integer nodes;

    @Option(names = "--interconnect", paramLabel = "NAME",
            description = "the interconnect, for files that do not say: NVLink2..5, PCIe3..5, IB-HDR/NDR/XDR,"
                    + " RoCE-100G/200G/400G, EFA, Slingshot11, TCP, InfinityFabric (hardware/interconnects.json)")
    String interconnect;

    public Integer gpus() {
        return gpus;
    }

    public Integer nodes() {
        return nodes;
    }

    public String interconnect() {
        return interconnect;
    }

    /**
     * A count the run had: the file's, else the flag's, else null. A flag that contradicts the file is an error,
     * never an override; a count below 1 is an error where it came from.
     *
     * @param what the count in words ({@code GPU count}); {@code flag} is its flag ({@code --gpus})
     */
    public static Integer reconcile(String file, String what, Integer fromFile, Integer fromFlag, String flag) {
        if (fromFlag != null && fromFlag < 1) {
            throw new InputException(flag, 0, what + " must be at least 1, got " + fromFlag);
        }
        if (fromFile != null && fromFlag != null && !fromFile.equals(fromFlag)) {
            throw new InputException(file, 0, "the file's " + what + " is " + fromFile + " but " + flag + " says "
                    + fromFlag + "; drop the flag or fix it");
        }
        if (fromFile != null && fromFile < 1) {
            throw new InputException(file, 0, what + " must be at least 1, got " + fromFile);
        }
        return fromFile != null ? fromFile : fromFlag;
    }

    /**
     * The flag that names a network between hosts ({@code --inter X}, or {@code --interconnect} of a fabric that
     * joins hosts, as IB-NDR does), in words; empty where none does.
     */
    public static Optional<String> networkFlag(String interconnect, String inter, HardwareFacts facts) {
        if (inter != null) {
            return Optional.of("--inter " + inter);
        }
        if (interconnect != null && facts.topologyOf(facts.interconnectNamed("--interconnect", interconnect))
                .betweenHosts()) {
            return Optional.of("--interconnect " + interconnect);
        }
        return Optional.empty();
    }

    /**
     * A file that does not say how many hosts ran is one host only where no flag names a network: taken as one,
     * the network would be the run's only tier, and busbw above one NIC's rate would read as in-network reduction.
     */
    public static void requireHosts(String file, Integer hosts, Optional<String> networkFlag) {
        if (hosts == null && networkFlag.isPresent()) {
            throw new InputException(file, 0, "the file does not say how many hosts ran, and " + networkFlag.get()
                    + " names a network between hosts: pass --nodes N (1 if it did run on one host)");
        }
    }
}
