package org.ncclharness.harness.datasets;

import java.util.concurrent.Callable;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.datasets.DatasetMetadata;
import org.ncclharness.harness.ExitCode;
import picocli.CommandLine.Command;

/** {@code datasets}: one line per bundled dataset; {@code show} and {@code import} are its subcommands. */
@Command(name = "datasets", mixinStandardHelpOptions = true,
        description = "List the bundled datasets: id, GPUs, hosts, interconnects, rows, flags.",
        subcommands = {DatasetsShowCommand.class, DatasetsImportCommand.class})
public final class DatasetsCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.out.printf("%-66s %5s %5s  %-22s %4s  %s%n", "# id", "GPUs", "hosts", "interconnect", "rows", "flags");
        for (Dataset d : DatasetCatalog.bundled().all()) {
            DatasetMetadata m = d.metadata();
            String fabric = fabric(m);
            System.out.printf("%-66s %5s %5s  %-22s %4d  %s%n", m.id(), orUnknown(m.gpus()), orUnknown(m.hosts()),
                    fabric, d.rows().size(), String.join(",", m.flags()));
        }
        return ExitCode.OK;
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
