package org.ncclharness.harness.convert;

import org.ncclharness.harness.HelpOptions;
import picocli.CommandLine.Mixin;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.io.MeasurementCsv;
import org.ncclharness.calibration.io.NcclTestsTableWriter;
import org.ncclharness.calibration.io.OutputFile;
import org.ncclharness.calibration.io.SweepJson;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.HarnessException;
import org.ncclharness.harness.LogCollectiveOption;
import org.ncclharness.harness.RunInputs;
import org.ncclharness.harness.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code convert FILE}: any readable input to the other formats. */
@Command(name = "convert",
        description = {"Convert an nccl-tests/rccl-tests log, a harness CSV or an nccl-tests/harness JSON file "
                + "into the other formats. With neither --csv nor --json, print the nccl-tests 2.19.6 table.",
            "FILE and OUT may be '-' for standard input and output."})
public final class ConvertCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Parameters(paramLabel = "FILE", description = "input file, - for standard input, or a bundled dataset id")
    String input;

    @Option(names = "--csv", paramLabel = "OUT", description = "write the CSV (collective,size_bytes,count,...,ip_error,provenance,provenance_label), every"
            + " table's rows, each saying where it came from")
    String csv;

    @Option(names = {"--json", "-J"}, paramLabel = "OUT", description = "write nccl-tests -J style JSON (several tables: one sweep each)")
    String json;

    @Mixin
    LogCollectiveOption collective;

    @Option(names = "--force", description = "overwrite existing output files")
    boolean force;

    @Override
    public Integer call() {
        if ("-".equals(csv) && "-".equals(json)) {
            throw new HarnessException(ExitCode.USAGE, "--csv - and --json - would mix two formats on standard "
                    + "output; send one of them to a file");
        }
        List<Sweep> sweeps = RunInputs.read(input, collective.value());
        // Every table stays its own: the CSV names each row's collective, the JSON holds one sweep per table.
        Map<Path, OutputFile.Content> files = new LinkedHashMap<>();
        List<String> toStdout = new ArrayList<>();
        for (String[] out : new String[][] {{csv, MeasurementCsv.toString(sweeps)}, {json, SweepJson.writeAll(sweeps)}}) {
            if (out[0] == null) {
                continue;
            }
            if (out[0].equals("-")) {
                toStdout.add(out[1]);
            } else {
                String text = out[1];
                files.put(Path.of(out[0]), o -> o.write(text.getBytes(StandardCharsets.UTF_8)));
            }
        }
        OutputFile.writeAll(files, force);
        toStdout.forEach(System.out::print);
        if (csv != null) {
            lostInCsv(sweeps).ifPresent(System.err::println);
        }
        if (csv == null && json == null) {
            PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
            for (Sweep s : sweeps) {
                List<String> heading = new ArrayList<>();
                heading.add("# " + s.provenance().label());
                s.notes().forEach(n -> heading.add("# note: " + n));
                NcclTestsTableWriter.write(out, s, heading);
            }
        }
        System.out.flush();
        return ExitCode.OK;
    }

    /**
     * The CSV holds the rows only: what else the input said of its run (the GPU, the hosts, the device list) is
     * named, so that a calibration of the CSV is not silently another one (one tier where the log had two).
     */
    private static Optional<String> lostInCsv(List<Sweep> sweeps) {
        Set<String> lost = new LinkedHashSet<>();
        for (Sweep s : sweeps) {
            Hardware h = s.hardware() == null ? Hardware.unknown() : s.hardware();
            if (h.gpuModel() != null || !s.devices().isEmpty()) {
                lost.add("the GPU model");
            }
            // a prediction's provenance label names the N it was predicted for, and is read back from the CSV
            if (h.ranks() != null && s.provenance().kind() != SourceKind.PREDICTED) {
                lost.add("the GPU count");
            }
            if (h.hosts() != null) {
                lost.add("the host count");
            }
            if (!s.devices().isEmpty()) {
                lost.add("the device list");
            }
        }
        return lost.isEmpty() ? Optional.empty() : Optional.of("# note: the CSV holds the rows"
                + " only, not " + String.join(", ", lost) + ": calibrate or check it with --gpus, --nodes and"
                + " --interconnect, or convert with --json, which keeps them");
    }
}
