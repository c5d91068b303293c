package org.ncclharness.harness.live;

import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.check.HealthCheck;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.harness.runs.JudgedReference;
import org.ncclharness.harness.runs.RunSource;

/**
 * The verdict {@code check} gives a sweep's table, judged as {@code check} judges a run it is given with no
 * reference (the expected curve of the bundled runs, the line rate, the class's healthy range), for
 * {@code sweep} to print after the table: the same rules, one verdict (docs/sweep-and-check.md, "The verdict").
 */
final class SweepVerdict {

    /** How the table is named in the verdict's reasons. */
    static final String NAME = "sweep";

    private SweepVerdict() {
    }

    /** @param interconnect {@code --interconnect} as given, null for none */
    static CheckReport of(Sweep table, String interconnect) {
        ResolvedRun run = RunSource.judged(RunDocument.live(NAME, table), table, new Hints(null, null, interconnect,
                null, null, null, null));
        Sweep s = run.sweep();
        JudgedReference ref = JudgedReference.expected(run, s, NAME);
        CheckReport report = new HealthCheck(HardwareFacts.bundled(), CheckRules.defaults()).check(NAME, s,
                new HealthCheck.Against(ref.rule(), null, run.nics()));
        return report.withFindings(java.util.List.of(), HealthCheck.notMeasured(s).stream().toList());
    }
}
