package org.ncclharness.harness.convert;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.io.MeasurementCsv;
import org.ncclharness.calibration.io.NcclTestsTableWriter;
import org.ncclharness.calibration.io.OutputFile;
import org.ncclharness.calibration.io.SweepJson;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code convert FILE}: any readable input to the other formats. */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Convert an nccl-tests/rccl-tests log, a harness CSV or an nccl-tests/harness JSON file "
                + "into the other formats. With neither --csv nor --json, print the nccl-tests 2.19.6 table.",
            "FILE and OUT may be '-' for standard input and output."})
public final class ConvertCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "input file, or - for standard input")
    String input;

    @Option(names = "--csv", paramLabel = "OUT", description = "write the CSV (size_bytes,count,...,ip_wrong)")
    String csv;

    @Option(names = {"--json", "-J"}, paramLabel = "OUT", description = "write nccl-tests -J style JSON")
    String json;

    @Option(names = "--force", description = "overwrite existing output files")
    boolean force;

    @Override
    public Integer call() {
        List<Sweep> sweeps = Inputs.read(input);
        // Several tables of one log (other datatypes or ops) travel together: each row names its type and op.
        List<Measurement> rows = new ArrayList<>();
        sweeps.forEach(s -> rows.addAll(s.rows()));
        Sweep all = sweeps.get(0).withRows(rows);
        for (String out : new String[] {csv, json}) {
            if (out != null && !out.equals("-")) {
                OutputFile.checkWritable(Path.of(out), force);
            }
        }
        if (csv != null) {
            emit(csv, MeasurementCsv.toString(rows));
        }
        if (json != null) {
            emit(json, SweepJson.write(all, List.of()));
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
        return ExitCode.OK;
    }

    private void emit(String out, String text) {
        if (out.equals("-")) {
            System.out.print(text);
            System.out.flush();
        } else {
            OutputFile.write(Path.of(out), force, o -> o.write(text.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
