package org.ncclharness.harness.runs;

import org.ncclharness.harness.options.PredictedRows;
import java.util.List;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.Missing;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.calibration.resolve.RunResolver;

/**
 * What {@code check} (and each step of {@code bringup}) judges: a run's tables with their facts resolved once
 * ({@link RunInputs#resolve}), and the baseline table it is compared with. A run that does not state its hosts is
 * left so (a verdict compares runs of the same shape only); a network named while the hosts are unknown is refused.
 */
public final class RunSource {

    private RunSource() {
    }

    /**
     * Every table of the run, refused where none can be judged: a prediction (unless {@code predicted} allows it),
     * a table of unknown collective.
     */
    public static List<Sweep> judgeable(RunDocument doc, Collective given, PredictedRows predicted) {
        List<Sweep> tables = predicted.admit(doc.name(), doc.requireSweeps());
        for (Sweep s : tables) {
            if (!s.collective().known()) {
                // Every rule reads busbw through the collective's bus factor: no verdict without it
                // the reader's reason, without its own advice: this message gives the flag with examples
                String why = String.join("; ", s.notes().stream()
                        .filter(n -> n.kind() == Note.Kind.COLLECTIVE_UNKNOWN).map(Note::reason).toList());
                throw new InputException(doc.name(), 0, TableName.of(s) + ": the collective is not known (" + why + ")"
                        + (given != null ? "; the rows contradict --collective " + given.testName() + " too: their"
                        + " time and busbw columns disagree (the table was edited, or mixes runs)"
                        : "; pass --collective NAME (all_reduce, all_gather, ...)"));
            }
        }
        return tables;
    }

    /** One table resolved for a verdict: only a network named for unknown hosts stops it. */
    public static ResolvedRun judged(RunDocument doc, Sweep table, Hints hints) {
        ResolvedRun run = RunInputs.resolve(doc, table, hints, RunResolver.UnstatedHosts.LEAVE_UNKNOWN);
        for (Missing m : run.missing()) {
            if (m instanceof Missing.HostCount h && h.why() == Missing.HostCount.Why.NETWORK_NAMED) {
                throw new InputException(doc.name(), 0, FactAdvice.one(m));
            }
        }
        return run;
    }

    /**
     * The baseline table for one table of the run: the baseline's table of the same collective, type and op
     * (its only table when it has one). A baseline of another collective is not comparable: refused.
     */
    public static Sweep baselineFor(String nameOrId, Sweep run) {
        RunDocument doc = RunInputs.document(JudgedReference.baselineFile(nameOrId), null,
                Inputs.Text.DROP);
        List<Sweep> tables = doc.requireSweeps();
        Measurement first = run.rows().get(0);
        List<Sweep> same = tables.stream().filter(t -> t.collective() == run.collective()).toList();
        if (same.isEmpty()) {
            throw new InputException(nameOrId, 0, "the baseline is " + TableName.of(tables.get(0))
                    + (tables.size() > 1 ? " (and " + (tables.size() - 1) + " more tables)" : "")
                    + ", the run is " + TableName.of(run) + ": a baseline must be of the same collective");
        }
        Sweep base = same.stream().filter(t -> t.rows().get(0).type().equals(first.type())
                && t.rows().get(0).redop().equals(first.redop())).findFirst().orElse(same.get(0));
        return judged(doc, base, Hints.NONE).sweep();
    }
}
