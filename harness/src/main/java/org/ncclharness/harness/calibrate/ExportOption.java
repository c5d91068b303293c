package org.ncclharness.harness.calibrate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.export.TunerExport;
import org.ncclharness.calibration.export.TunerPick;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.VersionInfo;
import picocli.CommandLine.Option;

/**
 * {@code calibrate --export FORMAT FILE}: the calibration in a format another tool reads. One format so far:
 * {@code nccl-tuner}, the CSV of NCCL's example tuner plugin ({@link TunerExport}).
 */
public final class ExportOption {

    static final String NCCL_TUNER = "nccl-tuner";
    private static final List<String> FORMATS = List.of(NCCL_TUNER);

    @Option(names = "--export", arity = "2", hideParamSyntax = true, paramLabel = "FORMAT FILE",
            description = "also write the calibration for another tool; FORMAT " + NCCL_TUNER + ": the"
                    + " NCCL_TUNER_CONFIG_FILE of NCCL's example tuner plugin (per size range the algorithm and"
                    + " protocol the model picks, or an --algo/--proto matrix's measured winner); - for standard"
                    + " output")
    List<String> values = new ArrayList<>();

    /** The file asked for, checked; null without {@code --export}. */
    OutputTarget target() {
        if (values.isEmpty()) {
            return null;
        }
        if (values.size() > 2) {
            throw new InputException("--export", 0, "given " + values.size() / 2 + " times; give it once");
        }
        if (!FORMATS.contains(values.get(0))) {
            throw new InputException("--export", 0, "unknown format " + values.get(0) + "; known: "
                    + String.join(", ", FORMATS));
        }
        return new OutputTarget.Converter().convert(values.get(1));
    }

    /** The tuner file's text and what it left out. */
    static TunerExport.Result tuner(CalibrationReport report, List<Path> files, List<String> ids) {
        Map<String, TunerPick> matrix = MatrixCombinations.of(files);
        List<String> heading = List.of(
                "NCCL_TUNER_CONFIG_FILE for NCCL's example tuner plugin (NVIDIA/nccl plugins/tuner/example, its"
                        + " parser as of NCCL 2.30.7).",
                "It takes effect only with that plugin built (make in plugins/tuner/example) and NCCL_TUNER_PLUGIN"
                        + " naming it; NCCL then prefers the row's algorithm/protocol for the collective, size range"
                        + " and scale it matches.",
                "Written by nccl-harness " + VersionInfo.projectVersion() + " calibrate --export " + NCCL_TUNER
                        + " from " + (ids.isEmpty() ? "every bundled dataset" : String.join(", ", ids)) + ".",
                "channels -1: NCCL's own count (no input measured one); numPipeOps and regBuff -1: any.");
        return TunerExport.of(report, matrix, heading);
    }
}
