package org.ncclharness.calibration.read;

import java.util.List;
import org.ncclharness.calibration.measure.Severity;

/**
 * What the diagnosis of a run's NCCL lines says, as {@code check} reports it beside its verdict and as a JSON of the
 * run keeps it: the transports NCCL used in one line, and every finding. A JSON has no lines to diagnose again, so
 * it carries this and a run that failed still fails from its JSON.
 *
 * @param transport what NCCL used, in one line ({@code NCCL used (its INFO lines): ...}), null where the lines show
 *                  no transport
 * @param findings  in the order found
 */
public record LogDiagnosis(String transport, List<Issue> findings) {

    /**
     * One finding.
     *
     * @param code     stable identifier ({@code SOCKET_FALLBACK})
     * @param evidence {@code file:line: the line}, or null where the finding is an absence
     * @param fix      what to do
     */
    public record Issue(String code, Severity severity, String message, String evidence, String fix) {
        /** A finding names what it found and how bad it is; a kept one that does not is refused where it is read. */
        public Issue {
            if (code == null || code.isBlank() || severity == null || message == null) {
                throw new IllegalArgumentException("a finding needs \"code\", \"severity\" and \"message\"");
            }
        }
    }

    public LogDiagnosis {
        findings = findings == null ? List.of() : List.copyOf(findings);
    }
}
