package org.ncclharness.calibration.measure;

/**
 * The configuration a sweep ran on, as far as it is known. Null = unknown (and said so, never guessed).
 *
 * @param gpuModel    GPU name
 * @param ranks       N, the number of ranks (GPUs) in the communicator
 * @param hosts       number of hosts
 * @param domainSize  GPUs per NVLink domain (8 for an HGX node, 72 for an NVL72 rack)
 * @param domains     number of NVLink domains
 * @param intra       interconnect inside a domain (vocabulary of hardware/interconnects.json)
 * @param inter       interconnect between domains, null for a single domain
 */
public record Hardware(String gpuModel, Integer ranks, Integer hosts, Integer domainSize, Integer domains,
                       String intra, String inter) {

    public static Hardware unknown() {
        return new Hardware(null, null, null, null, null, null, null);
    }

    public Hardware withRanks(Integer n) {
        return new Hardware(gpuModel, n, hosts, domainSize, domains, intra, inter);
    }

    public Hardware withHosts(Integer n) {
        return new Hardware(gpuModel, ranks, n, domainSize, domains, intra, inter);
    }
}
