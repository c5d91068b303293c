package org.ncclharness.calibration.resolve;

import org.ncclharness.calibration.hardware.Nics;

/**
 * What the user states about a run, for what its input does not say. Null where not stated. A hint never
 * overrides what the input states: a count that contradicts it is refused, and only the network a log's NCCL lines
 * name gives way to a stated interconnect (the resolution notes it).
 *
 * @param gpus         N, the ranks
 * @param nodes        the hosts
 * @param interconnect one fabric: across hosts the network between them, on one host the fabric inside it
 * @param intra        two tiers: the fabric inside an NVLink domain
 * @param inter        two tiers: the network between domains
 * @param domainSize   two tiers: GPUs per NVLink domain (default: a host's GPUs)
 * @param nics         the hosts' NICs
 */
public record Hints(Integer gpus, Integer nodes, String interconnect, String intra, String inter, Integer domainSize,
                    Nics nics) {

    public static final Hints NONE = new Hints(null, null, null, null, null, null, Nics.UNKNOWN);

    public Hints {
        nics = nics == null ? Nics.UNKNOWN : nics;
    }

    /** The same hints with another GPU and host count (one file's configuration among many). */
    public Hints withCounts(Integer g, Integer n) {
        return new Hints(g, n, interconnect, intra, inter, domainSize, nics);
    }

    /** True where a fabric is stated, one tier or two. */
    boolean namesFabric() {
        return interconnect != null || intra != null || inter != null;
    }
}
