package org.ncclharness.harness.datasets;

import org.ncclharness.harness.options.LogCollectiveOption;
import org.ncclharness.harness.options.HelpOptions;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.Outputs;
import org.ncclharness.calibration.check.HealthyRangesLearner;
import picocli.CommandLine.Mixin;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.harness.exit.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code datasets}: one line per bundled dataset; {@code show} and {@code import} are its subcommands. */
@Command(name = "datasets", addMethodSubcommands = false, sortOptions = false,
        description = "List the bundled datasets: id, collective, GPU, GPUs, hosts, interconnects, NCCL version, "
                + "rows, flags; '?' where the source does not say. The filters combine.",
        subcommands = {DatasetsShowCommand.class, DatasetsImportCommand.class})
public final class DatasetsCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Option(names = "--collective", paramLabel = "NAME", description = "only this collective (all_reduce, "
            + "all_gather, alltoall, ...)")
    String collective;

    @Option(names = "--gpu", paramLabel = "TEXT", description = "only GPU models containing TEXT (H100, MI300X, ...)")
    String gpu;

    @Option(names = "--interconnect", paramLabel = "NAME", description = "only datasets on this fabric, inside or "
            + "between domains (NVLink4, IB-NDR, ...)")
    String interconnect;

    @Option(names = "--min-gpus", paramLabel = "N", description = "only runs of at least N GPUs")
    Integer minGpus;

    @Option(names = "--healthy-ranges", paramLabel = "FILE", converter = OutputTarget.Converter.class,
            description = "instead of the list, write the healthy ranges learned from every bundled run (busbw at the"
            + " bandwidth-bound end as a share of the line rate, and the shortest small-size time, per hardware"
            + " class and GPU family) as JSON to FILE (- for standard output); the bundled copy that check, bringup"
            + " and sweep judge by is calibration's hardware/healthy-ranges.json. The filters do not apply")
    OutputTarget healthyRanges;

    @Option(names = "--force", description = "overwrite an existing --healthy-ranges FILE")
    boolean force;

    @Override
    public Integer call() {
        if (healthyRanges != null) {
            healthyRanges.checkWritable(force);
            String json = new HealthyRangesLearner(HardwareFacts.bundled()).learn(DatasetCatalog.bundled().all())
                    .json();
            Outputs outputs = new Outputs();
            outputs.add(healthyRanges, Outputs.utf8(json));
            outputs.commit(force);
            return ExitCode.OK;
        }
        Collective wanted = LogCollectiveOption.collective(collective);
        if (interconnect != null) {
            HardwareFacts.bundled().interconnectNamed("--interconnect", interconnect);
        }
        List<Dataset> shown = DatasetCatalog.bundled().all().stream().filter(d -> keep(d, wanted)).toList();
        // Widths from the rows shown, so that a long id never shifts the columns after it
        int idWidth = Math.max(4, shown.stream().mapToInt(d -> d.id().length()).max().orElse(0));
        int gpuWidth = Math.max(3, shown.stream().mapToInt(d -> gpuName(d.metadata()).length()).max().orElse(0));
        int fabricWidth = Math.max(12, shown.stream().mapToInt(d -> fabric(d.metadata()).length()).max().orElse(0));
        int ncclWidth = Math.max(4, shown.stream().mapToInt(d -> nccl(d.metadata()).length()).max().orElse(0));
        String format = "%-" + idWidth + "s  %-14s  %-" + gpuWidth + "s  %5s %5s  %-" + fabricWidth + "s  %-"
                + ncclWidth + "s %5s  %s%n";
        System.out.printf(format, "# id", "collective", "GPU", "GPUs", "hosts", "interconnect", "NCCL", "rows", "flags");
        for (Dataset d : shown) {
            DatasetMetadata m = d.metadata();
            System.out.printf(format, m.id(), m.collective(), gpuName(m), orUnknown(m.gpus()), orUnknown(m.hosts()),
                    fabric(m), nccl(m), d.rows().size(),
                    String.join(",", m.flags()));
        }
        if (shown.isEmpty()) {
            System.out.println("# no bundled dataset matches the filters");
        }
        return ExitCode.OK;
    }

    private boolean keep(Dataset d, Collective wanted) {
        DatasetMetadata m = d.metadata();
        return (wanted == null || d.collective() == wanted)
                && (gpu == null || m.gpuModel() != null
                        && m.gpuModel().toLowerCase(Locale.ROOT).contains(gpu.toLowerCase(Locale.ROOT)))
                && (interconnect == null || interconnect.equals(m.intra()) || interconnect.equals(m.inter()))
                && (minGpus == null || m.gpus() != null && m.gpus() >= minGpus);
    }

    private static String nccl(DatasetMetadata m) {
        return m.ncclVersion() == null ? "?" : m.ncclVersion();
    }

    /** The GPU model without the vendor prefix every NVIDIA and AMD name carries. */
    static String gpuName(DatasetMetadata m) {
        return m.gpuModel() == null ? "?" : m.gpuModel().replaceFirst("^(NVIDIA |AMD Instinct |AMD )", "");
    }

    /** "NVLink4 + IB-NDR"; "none" for one GPU per domain; "?" where the source does not say. */
    static String fabric(DatasetMetadata m) {
        String intra = m.intra() != null ? m.intra() : Integer.valueOf(1).equals(m.domainSize()) ? "none" : "?";
        boolean multi = m.multiDomain() || (m.hosts() != null && m.hosts() > 1 && m.domains() == null);
        return intra + (m.inter() != null ? " + " + m.inter() : multi ? " + ?" : "");
    }

    private static String orUnknown(Integer v) {
        return v == null ? "?" : v.toString();
    }
}
