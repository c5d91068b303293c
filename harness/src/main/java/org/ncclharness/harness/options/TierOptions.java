package org.ncclharness.harness.options;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import picocli.CommandLine.Option;

/**
 * {@code --intra}/{@code --inter}: the two tiers of a multi-domain run, for the commands that read files
 * ({@code calibrate}, {@code plot --model}, {@code check}: one set of flags serves all three); {@code --interconnect}
 * stays one tier's fabric (or, on a log of several hosts, the network between them).
 */
public final class TierOptions {

    @Option(names = "--intra", paramLabel = "NAME",
            description = "two tiers: the fabric inside an NVLink domain (NVLink3, NVLink4, NVLink5, InfinityFabric, ...)")
    String intra;

    @Option(names = "--inter", paramLabel = "NAME",
            description = "two tiers: the fabric between domains (IB-NDR, RoCE-400G, ...); without it beta_IB is fitted"
                    + " with no physical reference and u_IB is not reported")
    String inter;

    public String intra() {
        return intra;
    }

    public String inter() {
        return inter;
    }

    /** Exit 2 when {@code --interconnect} names one fabric and --intra or --inter another. */
    public void agreeWith(String interconnect) {
        if (interconnect != null && (intra != null && !intra.equals(interconnect)
                || inter != null && !inter.equals(interconnect))) {
            throw new HarnessException(ExitCode.USAGE, "--interconnect " + interconnect + " names a one-tier run's"
                    + " fabric, and " + (intra != null && !intra.equals(interconnect) ? "--intra " + intra
                    : "--inter " + inter) + " another: give --interconnect for one tier, or --intra/--inter for two");
        }
    }
}
