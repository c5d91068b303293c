package org.ncclharness.harness.options;

import picocli.CommandLine.Option;

/**
 * {@code --gpus}, {@code --nodes}, {@code --interconnect}: what a run was, for the files that do not say it (an
 * nccl-tests log without '# Using devices' lines, a CSV without a hardware column). One picocli mixin, so every
 * command that reads runs offers the same three flags in the same words; a flag never overrides what the file
 * says (the resolver refuses a contradiction, {@link FactAdvice} words it). Null where not given.
 */
public final class RunMetadataOptions {

    @Option(names = "--gpus", paramLabel = "N", converter = CountConverter.class,
            description = "GPU (rank) count, for files that do not say")
    Integer gpus;

    @Option(names = "--nodes", paramLabel = "N", converter = CountConverter.class,
            description = "node count, for files that do not say")
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
}
