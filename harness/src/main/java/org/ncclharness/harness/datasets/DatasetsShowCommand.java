package org.ncclharness.harness.datasets;

import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.exit.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code datasets show ID}: the dataset in the nccl-tests 2.19.6 table layout, headed by where it came from. */
@Command(name = "show", addMethodSubcommands = false,
        description = "Print a bundled dataset as an nccl-tests 2.19.6 table (values as published; N/A where the "
                + "source gives none).")
public final class DatasetsShowCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Parameters(paramLabel = "ID", description = "dataset id (see: harness.jar datasets)")
    String id;

    private static String orUnknown(Object v) {
        return v == null ? "?" : v.toString();
    }

    @Override
    public Integer call() {
        Dataset d = DatasetCatalog.bundled().get(id);
        Sweep published = d.published();
        List<String> heading = new ArrayList<>();
        heading.add("# " + published.provenance().label());
        // The metadata first, as the source states it; what it does not state is listed as missing
        DatasetMetadata m = d.metadata();
        heading.add("# collective: " + m.collective() + ", library: " + m.library() + ", data type: " + m.dataType());
        heading.add("# GPU: " + orUnknown(m.gpuModel()) + ", GPUs: " + orUnknown(m.gpus()) + ", hosts: "
                + orUnknown(m.hosts()) + ", GPUs per domain: " + orUnknown(m.domainSize()) + ", domains: "
                + orUnknown(m.domains()));
        heading.add("# interconnect: " + DatasetsCommand.fabric(m) + ", NICs per host: " + orUnknown(m.nicsPerHost())
                + ", NIC Gb/s: " + orUnknown(m.nicGbps()));
        heading.add("# NCCL: " + orUnknown(m.ncclVersion()) + ", NCCL_ALGO: " + orUnknown(m.algo()) + ", NCCL_PROTO: "
                + orUnknown(m.proto()) + ", date: " + orUnknown(m.date()));
        heading.add("# source: " + orUnknown(m.sourceUrl()));
        if (!m.missing().isEmpty()) {
            heading.add("# not stated by the source: " + String.join(", ", m.missing()));
        }
        m.flags().forEach(f -> heading.add("# flag: " + f));
        PrintWriter out = new PrintWriter(System.out, true);
        NcclTestsTableWriter.write(out, published, heading);
        return ExitCode.OK;
    }
}
