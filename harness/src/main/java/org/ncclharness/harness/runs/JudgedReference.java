package org.ncclharness.harness.runs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.check.CheckReportWriter;
import org.ncclharness.calibration.check.ExpectedCurves;
import org.ncclharness.calibration.check.Reference;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.resolve.Missing;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.harness.figure.FigureSeries;
import org.ncclharness.harness.figure.ModelCurve;

/**
 * What a run is judged against, and its series for the figure: a baseline run, or the expected curve of the
 * nearest bundled run of the same hardware, or (with neither) why there is none. Shared by {@code check} and
 * each step of {@code bringup}.
 *
 * @param rule   the reference, null without one
 * @param series the reference as the figure draws it, null without one
 * @param why    why there is no reference, null when there is one or when none was wanted
 */
public record JudgedReference(Reference rule, FigureSeries series, String why) {

    /**
     * The expected curve for a run's rows (its table, or a step's kept median) from the bundled runs of its resolved
     * hardware, NICs and forced algorithm: the one choice {@code check} and every {@code bringup} step make.
     */
    public static JudgedReference expected(ResolvedRun run, Sweep rows, String runId) {
        ExpectedCurves.Outcome o = ExpectedCurves.forRun(rows, runId, run.nics().perHost(), run.forcedAlgo(),
                DatasetCatalog.bundled().all(), HardwareFacts.bundled());
        if (o.reference() == null) {
            return new JudgedReference(null, null, o.fabricNotStated() ? fabricNotStated(run).orElse(o.reason())
                    : o.reason());
        }
        return of(o, rows);
    }

    /**
     * Why there is no reference where the run's fabric is not known, worded from its resolved facts as calibrate
     * words them: on a run across hosts whose GPU name gives the fabric inside a host, only the network is missing.
     */
    private static Optional<String> fabricNotStated(ResolvedRun run) {
        return run.missing().stream()
                .filter(m -> m instanceof Missing.Interconnect || m instanceof Missing.Network
                        || m instanceof Missing.FabricInsideHost)
                .findFirst().map(m -> "no reference (another cluster's run): " + FactAdvice.one(m)
                        + "; without it no bundled run of the same hardware can be found");
    }

    /** The expected curve an outcome with a reference gives {@code sweep}. */
    private static JudgedReference of(ExpectedCurves.Outcome o, Sweep sweep) {
        Reference r = o.reference();
        // the legend names the curve as every other output does: the reference, with its kind
        String label = CheckReportWriter.referenceHead(r) + ": " + r.label();
        FigureSeries series = o.model() != null
                ? FigureSeries.predicted(label, sweep.collective(), o.model().ranks(),
                        List.of(new ModelCurve(o.model().name(), o.model()::timeUs)))
                : FigureSeries.of(o.peer().sweep());
        return new JudgedReference(r, series.withLabel(label), null);
    }

    /** An earlier run of the same system as the reference. */
    public static JudgedReference baseline(String label, Sweep base) {
        FigureSeries series = FigureSeries.of(base);
        return new JudgedReference(Reference.baseline(label + " (" + base.provenance().label() + ")", base),
                series.withLabel(series.label() + " (baseline " + label + ")"), null);
    }

    /**
     * The file a {@code --baseline} names: a bring-up's directory means the baseline.json its step 4 kept, so the
     * directory {@code bringup -o} printed can be given as it is; anything else is the file or bundled id itself.
     */
    public static String baselineFile(String nameOrDir) {
        Path dir = Path.of(nameOrDir);
        if (!Files.isDirectory(dir)) {
            return nameOrDir;
        }
        Path kept = dir.resolve("baseline.json");
        if (!Files.isRegularFile(kept)) {
            throw new InputException(nameOrDir, 0, "is a directory without baseline.json: give the directory of a"
                    + " bring-up that reached step 4, or a run file");
        }
        return kept.toString();
    }
}
