package org.ncclharness.harness.calibrate;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.export.AstraSimNetwork;
import org.ncclharness.calibration.export.SimAiBusBw;
import org.ncclharness.calibration.export.TunerExport;
import org.ncclharness.calibration.export.TunerPick;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.VersionInfo;
import picocli.CommandLine.Option;

/**
 * {@code calibrate --nccl-tuner FILE}, {@code --astra-sim FILE}, {@code --simai FILE}: the calibration as the
 * configuration of NCCL's example tuner plugin ({@link TunerExport}), as ASTRA-sim's analytical network
 * ({@link AstraSimNetwork}) and as SimAI's analytical busbw file ({@link SimAiBusBw}). Each an output option of its
 * own (not {@code --export FORMAT FILE}): every output of a command is one {@link OutputTarget}, so it takes
 * {@code -}, is checked before the work and never names another output's file.
 */
public final class ExportOption {

    static final String NCCL_TUNER = "--nccl-tuner";

    @Option(names = NCCL_TUNER, paramLabel = "FILE", converter = OutputTarget.Converter.class,
            description = "also write NCCL_TUNER_CONFIG_FILE for NCCL's example tuner plugin: per size range the"
                    + " algorithm and protocol the model picks at each calibrated scale, or where the inputs are an"
                    + " --algo/--proto matrix (sweep -J files) the measured winner; - for standard output")
    OutputTarget target;

    static final String ASTRA_SIM = "--astra-sim";

    @Option(names = ASTRA_SIM, paramLabel = "FILE", converter = OutputTarget.Converter.class,
            description = "also write the network configuration of ASTRA-sim's analytical backend (YAML: topology,"
                    + " npus_count, bandwidth, latency per dimension) from the first calibrated run whose every"
                    + " dimension the fit determines: the NVLink domain and the network between domains, or one"
                    + " dimension for a single-tier run; - for standard output")
    OutputTarget astraSim;

    static final String SIMAI = "--simai";

    @Option(names = SIMAI, paramLabel = "FILE", converter = OutputTarget.Converter.class,
            description = "also write SimAI's analytical busbw file (-busbw: TP and DP busbw per collective) from"
                    + " the calibrated runs; - for standard output")
    OutputTarget simai;

    /** The options given, in the order they are written. */
    List<OutputTarget> targets() {
        return java.util.stream.Stream.of(target, astraSim, simai).filter(java.util.Objects::nonNull).toList();
    }

    /**
     * One export made from the calibration: its file's text, and the line the command prints once the files are
     * written ({@code # SimAI busbw written to F: 6 values; not written: 2 (listed at the file's top)}).
     */
    record Made(OutputTarget target, String text, String summary) {

        static Made of(OutputTarget target, String text, String what, String written, List<String> skipped) {
            return new Made(target, text, "# " + what + " " + (target.isStdout() ? "on standard output"
                    : "written to " + target) + ": " + written + (skipped.isEmpty() ? "" : "; not written: "
                    + skipped.size() + " (listed at the file's top)"));
        }
    }

    /**
     * Every export asked for, made from {@code report} (the ASTRA-sim network, SimAI's busbw file, the tuner's
     * configuration, in that order); a format whose file would say nothing is refused (exit 2) with why.
     */
    List<Made> make(CalibrationReport report, List<Path> files, List<String> ids) {
        List<Made> made = new java.util.ArrayList<>();
        if (astraSim != null) {
            AstraSimNetwork.Result a = astraSim(report, ids);
            String text = a.text().orElseThrow(() -> new HarnessException(ExitCode.USAGE, ASTRA_SIM + ": no"
                    + " calibrated run determines every dimension's bandwidth and latency (" + String.join("; ",
                    a.skipped()) + "); nothing was written"));
            made.add(Made.of(astraSim, text, "ASTRA-sim network", a.written().orElseThrow().id(), a.skipped()));
        }
        if (simai != null) {
            SimAiBusBw.Result r = simai(report, ids);
            if (r.values() == 0) {
                throw new HarnessException(ExitCode.USAGE, SIMAI + ": no calibrated run gives a busbw SimAI reads ("
                        + String.join("; ", r.skipped()) + "); nothing was written");
            }
            made.add(Made.of(simai, r.text(), "SimAI busbw", r.values() + " values", r.skipped()));
        }
        if (target != null) {
            TunerExport.Result t = tuner(report, files, ids);
            made.add(Made.of(target, t.text(), "tuner configuration", t.rows().size() + " rows, " + t.measuredRows()
                    + " from a measured --algo/--proto matrix, the rest from a model", t.skipped()));
        }
        return made;
    }

    private static String from(String option, List<String> ids) {
        return "Written by nccl-harness " + VersionInfo.projectVersion() + " calibrate " + option + " from "
                + (ids.isEmpty() ? "every bundled dataset" : String.join(", ", ids)) + ".";
    }

    /** The ASTRA-sim network file's text, or why none could be written. */
    static AstraSimNetwork.Result astraSim(CalibrationReport report, List<String> ids) {
        return AstraSimNetwork.of(report, List.of(
                "Network configuration of ASTRA-sim's analytical backend (astra-sim/astra-network-analytical,"
                        + " NetworkParser as of commit 599a047, 2024-11-02; the astra-sim repository's"
                        + " extern/network_backend/analytical).",
                from(ASTRA_SIM, ids),
                "bandwidth: GB/s of 2^30 B per NPU link (the fit's decimal GB/s x 10^9 / 2^30); latency: ns per link;"
                        + " Ring: one hop per ring step, so a send costs one step's latency."));
    }

    /** SimAI's busbw file's text. */
    static SimAiBusBw.Result simai(CalibrationReport report, List<String> ids) {
        return SimAiBusBw.of(report, List.of(
                "SimAI analytical busbw file (SimAI_analytical -busbw FILE; SimAI's parser skips this first line).",
                "Read by aliyun/SimAI's analytical mode up to commit d44c48b (2025-07-09); from 26b4574 (#144, the same"
                        + " day) the analytical binary computes busbw itself from -nv/-nic/-n_p_s and no"
                        + " longer reads this file.",
                from(SIMAI, ids),
                "busbw in GB/s of 2^30 B (SimAI's GBps); TP: a group inside one server, DP: across servers;"
                        + " null: not measured or not determined. SimAI has no latency term: none is written."));
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
                from(NCCL_TUNER, ids),
                "channels -1: NCCL's own count (no input measured one); numPipeOps and regBuff -1: any.");
        return TunerExport.of(report, matrix, heading);
    }
}
