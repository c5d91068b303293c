package org.ncclharness.calibration.resolve;

/**
 * A fact about a run that its user can state when the input does not (each is one {@link Hints} field). The
 * calibration core names the fact; the command line decides how a user states it.
 */
public enum Fact {
    GPU_COUNT,
    HOST_COUNT,
    /** One fabric: across hosts the network between them, on one host the fabric inside it. */
    INTERCONNECT,
    FABRIC_INSIDE_HOST,
    NETWORK_BETWEEN_HOSTS,
    DOMAIN_SIZE,
    NICS_PER_HOST,
    NIC_SPEED,
    COLLECTIVE
}
