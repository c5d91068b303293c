package org.ncclharness.harness.convert;

import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.diagnose.RunDiagnosis;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.harness.options.LogCollectiveOption;
import org.ncclharness.harness.runs.RunInputs;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.Outputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code convert FILE}: any readable input to the other formats. */
@Command(name = "convert", addMethodSubcommands = false,
        description = {"Convert an nccl-tests/rccl-tests log, a harness CSV or an nccl-tests/harness JSON file "
                + "into the other formats. With neither --csv nor --json, print the nccl-tests 2.19.6 table.",
            "FILE and OUT may be '-' for standard input and output."})
public final class ConvertCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Parameters(paramLabel = "FILE", description = "input file, - for standard input, or a bundled dataset id")
    String input;

    @Option(names = "--csv", paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "write the CSV (collective,size_bytes,count,...,ip_error,provenance,provenance_label), every"
                    + " table's rows, each saying where it came from; - for standard output")
    OutputTarget csv;

    @Option(names = {"--json", "-J"}, paramLabel = "OUT", converter = OutputTarget.Converter.class,
            description = "write nccl-tests -J style JSON (several tables: one sweep each); - for standard output")
    OutputTarget json;

    @Mixin
    LogCollectiveOption collective;

    @Option(names = "--force", description = "overwrite existing output files")
    boolean force;

    @Override
    public Integer call() {
        for (OutputTarget o : new OutputTarget[] {csv, json}) {
            if (o != null) {
                o.checkWritable(force);
            }
        }
        // the JSON keeps the diagnosis of NCCL's lines, which reads the log's text; the CSV and the table need its
        // rows and its facts only, so a log of any size streams past
        RunDocument doc = RunInputs.document(input, collective.value(), json != null ? Inputs.Text.KEEP
                : Inputs.Text.DROP);
        List<Sweep> sweeps = doc.requireSweeps();
        // Every table stays its own: the CSV names each row's collective, the JSON holds one sweep per table, each
        // with what the input states besides its rows (the NICs, the network, NCCL's lines' diagnosis)
        Outputs outputs = new Outputs();
        if (csv != null) {
            // row by row into the file: a million rows are not first held as one text (README, memory)
            outputs.add(csv, o -> {
                java.io.Writer w = new java.io.OutputStreamWriter(o, StandardCharsets.UTF_8);
                MeasurementCsv.write(w, sweeps);
                w.flush();
            });
        }
        if (json != null) {
            outputs.add(json, Outputs.utf8(SweepJson.writeAll(sweeps, SweepJson.Context.none()
                    .withSource(RunDiagnosis.kept(doc).toJson().orElse(null)))));
        }
        outputs.commit(force);
        if (csv != null) {
            lostInCsv(doc, sweeps).ifPresent(System.err::println);
        }
        if (csv == null && json == null) {
            PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
            for (Sweep s : sweeps) {
                List<String> heading = new ArrayList<>();
                heading.add("# " + s.provenance().label());
                s.notes().forEach(n -> heading.add("# note: " + n.text()));
                NcclTestsTableWriter.write(out, s, heading);
            }
            out.flush();
        }
        return ExitCode.OK;
    }

    /**
     * The CSV holds the rows only: what else the input said of its run (the GPU, the hosts, the device list, the
     * NICs and the network NCCL's lines name) is named, so that a calibration or check of the CSV is not silently
     * another one (one tier where the log had two, no line rate where the log gave the NICs).
     */
    private static Optional<String> lostInCsv(RunDocument doc, List<Sweep> sweeps) {
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
        boolean nics = doc.nics().perHost() != null;
        if (nics) {
            lost.add("the NICs per host");
        }
        if (doc.namedNetwork().isPresent()) {
            lost.add("the network NCCL's lines name");
        }
        return lost.isEmpty() ? Optional.empty() : Optional.of("# note: the CSV holds the rows"
                + " only, not " + String.join(", ", lost) + ": calibrate or check it with --gpus, --nodes"
                + (nics ? ", --interconnect and --nics-per-host" : " and --interconnect") + ", or convert with --json,"
                + " which keeps them");
    }
}
