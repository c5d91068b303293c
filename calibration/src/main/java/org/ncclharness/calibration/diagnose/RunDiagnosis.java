package org.ncclharness.calibration.diagnose;

import java.util.Optional;
import org.ncclharness.calibration.read.LogDiagnosis;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.read.SourceFacts;

/**
 * A run's diagnosis as its document gives it: the one a JSON of the run keeps, else the diagnosis of its text's
 * NCCL lines. {@code check} asks here, never {@link Diagnoser} itself, and a JSON is written with what this gives,
 * so a log and its JSON report the same findings and reach the same verdict.
 */
public final class RunDiagnosis {

    private RunDiagnosis() {
    }

    /** The document's diagnosis; empty for an input with neither lines nor a kept diagnosis (a CSV). */
    public static Optional<LogDiagnosis> of(RunDocument doc) {
        if (doc.diagnosis().isPresent()) {
            return doc.diagnosis();
        }
        if (doc.lines().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(summary(Diagnoser.diagnose(doc.name(), doc.lines(), RunShape.of(doc))));
    }

    /** What a JSON of the document keeps besides its tables: the facts it states, the diagnosis included. */
    public static SourceFacts kept(RunDocument doc) {
        return doc.source().withDiagnosis(of(doc).orElse(null));
    }

    /** A diagnosis as check reports it: the transports in one line, and the findings. */
    static LogDiagnosis summary(Diagnosis d) {
        return new LogDiagnosis(DiagnosisWriter.transportLine(d).orElse(null), d.findings());
    }
}
