package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.read.LogDiagnosis;

/**
 * The diagnosis of a run's NCCL lines as verdict findings, for {@code check} and {@code bringup} alike: a finding
 * the diagnosis rates FAIL (a rank's {@code Test NCCL failure}, a fatal NCCL error) fails the run whatever its
 * numbers say, with the line that says so; the rest is context for the reader ({@code diagnose} judges it), so the
 * verdict and {@code diagnose} agree on what fails.
 */
public final class DiagnosisFindings {

    /** The finding the diagnosis gives a log with no NCCL lines: nothing to report beside a verdict. */
    private static final String NO_NCCL_LINES = "NO_NCCL_LINES";

    /**
     * Codes that fail a verdict whatever severity the diagnosis gives them: a log of several jobs printed into one
     * (each process a job of its own) has numbers of no run across hosts, so a gate must not pass it
     * (docs/sweep-and-check.md, "The verdict").
     */
    private static final java.util.Set<String> FAIL_A_VERDICT = java.util.Set.of("SEPARATE_JOBS");

    private DiagnosisFindings() {
    }

    /** Whether this finding fails the run's verdict. */
    public static boolean fails(LogDiagnosis.Issue i) {
        return i.severity() == Severity.FAIL || FAIL_A_VERDICT.contains(i.code());
    }

    public static List<Finding> of(LogDiagnosis d) {
        List<Finding> out = new ArrayList<>();
        if (d.transport() != null) {
            out.add(Finding.info("diagnosis", d.transport()));
        }
        d.findings().stream().filter(i -> i.severity() != Severity.INFO && !i.code().equals(NO_NCCL_LINES))
                .map(i -> fails(i) ? failed(i) : finding(Severity.INFO, "diagnosis", i))
                .forEach(out::add);
        return out;
    }

    /** A finding that {@link #fails} the run, as the verdict's reason. */
    public static Finding failed(LogDiagnosis.Issue i) {
        return finding(Severity.FAIL, "run-failed", i);
    }

    /** A diagnosis issue as a finding of check's, its evidence and fix on the same line. */
    private static Finding finding(Severity severity, String rule, LogDiagnosis.Issue i) {
        return new Finding(severity, rule, null, "diagnosis " + i.code() + ": " + i.message() + " (" + i.evidence()
                + "); fix: " + i.fix());
    }
}
