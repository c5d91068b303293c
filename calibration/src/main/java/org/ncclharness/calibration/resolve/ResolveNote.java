package org.ncclharness.calibration.resolve;

import org.ncclharness.calibration.read.LogNetwork;

/**
 * What a resolution decided that the input did not state, for the user to see (and to override). The command line
 * words them ({@code harness}'s advice names the flag); nothing decides anything by reading their words.
 */
public sealed interface ResolveNote {

    /** The input does not say how many hosts ran: one is assumed (a command that must have a count). */
    record HostsAssumedOne() implements ResolveNote { }

    /** One host, no fabric stated: the fabric inside it from the GPU name (hardware/gpu-fabrics.json). */
    record FabricFromGpuName(String intra, String gpu) implements ResolveNote { }

    /**
     * Across hosts, one interconnect is the network between them; inside a host the GPU name's fabric ({@code intra},
     * null with one GPU per host).
     */
    record NetworkBetweenHosts(NamedInterconnect network, int hosts, String intra, String gpu) implements ResolveNote { }

    /** The log's lines name another network than the one the user stated, and the user's is taken. */
    record LogNetworkOverridden(LogNetwork.Named log, String stated) implements ResolveNote { }

    /**
     * A network between hosts is stated for a run on one host (one interconnect over a folder of one- and many-host
     * logs): inside the host its GPU name's fabric is taken.
     */
    record NetworkOnOneHost(String network, String intra, String gpu) implements ResolveNote { }
}
