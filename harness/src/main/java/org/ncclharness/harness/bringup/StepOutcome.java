package org.ncclharness.harness.bringup;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.RepeatedRuns;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.figure.FigureSeries;

/**
 * One step as judged: each subject (a GPU, a host, the job) with its kept run and {@code check}'s report, the
 * findings that compare the subjects with each other, and the verdict over all of them.
 *
 * @param subjects empty when the step was skipped or did not complete
 * @param findings the step's own: peers against each other
 * @param skipped  why the step did not run, null when it ran
 */
public record StepOutcome(BringupStep step, List<Subject> subjects, List<Finding> findings, Verdict verdict,
                          String skipped) {

    /**
     * One subject of a step.
     *
     * @param name      a GPU ({@code rank 3 on node07}), a host, or {@code all 4 hosts}
     * @param runs      the {@code -N} runs, the median kept
     * @param kept      the kept rows as a sweep (what the report and the baseline hold)
     * @param report    {@code check}'s report on {@code kept}
     * @param reference the reference's series for the figure, null without one
     */
    public record Subject(String name, RepeatedRuns runs, Sweep kept, CheckReport report, FigureSeries reference) { }

    public StepOutcome {
        subjects = List.copyOf(subjects);
        findings = List.copyOf(findings);
    }

    static StepOutcome skipped(BringupStep step, String why) {
        return new StepOutcome(step, List.of(), List.of(), Verdict.PASS, why);
    }

    /** A step that did not complete (an NCCL error, a rank lost): FAIL with the reason, nothing measured. */
    static StepOutcome broken(BringupStep step, String why) {
        return new StepOutcome(step, List.of(), List.of(new Finding(org.ncclharness.calibration.measure.Severity.FAIL,
                "job", null, "the step did not complete: " + why)), Verdict.FAIL, null);
    }

    /** Every WARN and FAIL of the step: the subjects' reasons, then the step's own. */
    public List<Finding> reasons() {
        List<Finding> out = new ArrayList<>();
        for (Subject s : subjects) {
            s.report().reasons().forEach(f -> out.add(new Finding(f.severity(), f.rule(), f.sizeBytes(),
                    (subjects.size() > 1 ? s.name() + ": " : "") + f.message())));
        }
        findings.stream().filter(f -> f.severity() != org.ncclharness.calibration.measure.Severity.INFO)
                .forEach(out::add);
        return out;
    }
}
