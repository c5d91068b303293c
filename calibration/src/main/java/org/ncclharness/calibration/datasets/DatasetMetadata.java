package org.ncclharness.calibration.datasets;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.ncclharness.calibration.hardware.Nics;

/**
 * One entry of {@code datasets/datasets.json}: what the source says about a bundled dataset, and only that.
 * A field the source does not state is null (and {@link #missing} says which ones, so a listing can say so).
 *
 * @param id            raw file name without {@code .txt}; the {@code # Dataset:} line says the same
 * @param collective    nccl-tests stem: {@code all_reduce}, {@code all_gather}
 * @param library       {@code nccl-tests} or {@code rccl-tests}
 * @param gpuModel      GPU name as the source prints it
 * @param gpus          N, the GPU (rank) count of the run
 * @param hosts         number of hosts (nodes, trays or pods as the source counts them)
 * @param domainSize    GPUs per NVLink domain (8 for an HGX node, 72 for an NVL72 rack, 4 per GB200 tray...)
 * @param domains       number of NVLink domains
 * @param intra         intra-domain interconnect, from the vocabulary of hardware/interconnects.json
 * @param inter         inter-domain interconnect, null for a single domain
 * @param nicsPerHost   NICs per host where the source states it
 * @param nicGbps       speed of one NIC in Gb/s where the source states it
 * @param ncclVersion   NCCL or RCCL version as stated
 * @param algo          forced NCCL_ALGO, if any
 * @param proto         forced NCCL_PROTO, if any
 * @param dataType      datatype ({@code float} ...)
 * @param halves        which halves the source has: {@code both}, {@code out-of-place}, {@code in-place}
 * @param sourceUrl     the public page the numbers come from
 * @param date          publication or run date as stated (free text, ISO where possible)
 * @param flags         {@code busbw-only}, {@code time-derived}, {@code partial}, {@code gpu-count-inferred},
 *                      {@code sizes-decoded}, {@code mixed-configurations}
 * @param missing       names of the fields above the source does not state
 * @param notes         one line of caveats from the source header
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record DatasetMetadata(String id, String collective, String library, String gpuModel, Integer gpus,
                              Integer hosts, Integer domainSize, Integer domains, String intra, String inter,
                              Integer nicsPerHost, Double nicGbps, String ncclVersion, String algo,
                              String proto, String dataType, String halves, String sourceUrl, String date,
                              List<String> flags, List<String> missing, String notes) {

    public DatasetMetadata {
        flags = flags == null ? List.of() : List.copyOf(flags);
        missing = missing == null ? List.of() : List.copyOf(missing);
    }

    public boolean hasFlag(String flag) {
        return flags.contains(flag);
    }

    /** The host's NICs as the source states them. */
    public Nics nics() {
        return Nics.ofGbps(nicsPerHost, nicGbps);
    }

    /** True when the run spans more than one NVLink domain (the two-tier fit applies). */
    public boolean multiDomain() {
        return domains != null && domains > 1;
    }
}
