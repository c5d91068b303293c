package org.ncclharness.harness.calibrate;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.export.TunerExport;
import org.ncclharness.calibration.export.TunerPick;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.VersionInfo;
import picocli.CommandLine.Option;

/**
 * {@code calibrate --nccl-tuner FILE}: the calibration as the configuration of NCCL's example tuner plugin
 * ({@link TunerExport}). An output option of its own (not {@code --export FORMAT FILE}): every output of a command is
 * one {@link OutputTarget}, so it takes {@code -}, is checked before the work and never names another output's file.
 */
public final class ExportOption {

    static final String NCCL_TUNER = "--nccl-tuner";

    @Option(names = NCCL_TUNER, paramLabel = "FILE", converter = OutputTarget.Converter.class,
            description = "also write NCCL_TUNER_CONFIG_FILE for NCCL's example tuner plugin: per size range the"
                    + " algorithm and protocol the model picks at each calibrated scale, or where the inputs are an"
                    + " --algo/--proto matrix (sweep -J files) the measured winner; - for standard output")
    OutputTarget target;

    /** The tuner file's text and what it left out. */
    static TunerExport.Result tuner(CalibrationReport report, List<Path> files, List<String> ids) {
        Map<String, TunerPick> matrix = MatrixCombinations.of(files);
        List<String> heading = List.of(
                "NCCL_TUNER_CONFIG_FILE for NCCL's example tuner plugin (NVIDIA/nccl plugins/tuner/example, its"
                        + " parser as of NCCL 2.30.7).",
                "It takes effect only with that plugin built (make in plugins/tuner/example) and NCCL_TUNER_PLUGIN"
                        + " naming it; NCCL then prefers the row's algorithm/protocol for the collective, size range"
                        + " and scale it matches.",
                "Written by nccl-harness " + VersionInfo.projectVersion() + " calibrate " + NCCL_TUNER
                        + " from " + (ids.isEmpty() ? "every bundled dataset" : String.join(", ", ids)) + ".",
                "channels -1: NCCL's own count (no input measured one); numPipeOps and regBuff -1: any.");
        return TunerExport.of(report, matrix, heading);
    }
}
