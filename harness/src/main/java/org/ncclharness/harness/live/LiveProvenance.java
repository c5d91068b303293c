package org.ncclharness.harness.live;

import java.util.Optional;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.gpu.TimedLoop;

/**
 * Where the rows of this job's timed loop came from: measured now, or, where the loop read a test clock
 * ({@link TimedLoop#testClock}, the stand-ins' virtual time), {@link SourceKind#TEST_CLOCK} with a label that says
 * so. The kind travels into the table's heading, the CSV's provenance column and the JSON, so a file of such a run
 * reads back as not measured.
 */
final class LiveProvenance {

    private LiveProvenance() {
    }

    /** @param what where and by what, after {@code measured now } ({@code on 2 host(s) from h0 by nccl-harness}) */
    static Provenance of(String source, String what) {
        return of(source, what, TimedLoop.testClock());
    }

    static Provenance of(String source, String what, Optional<String> testClock) {
        return testClock.map(c -> new Provenance(SourceKind.TEST_CLOCK, source, null, Provenance.TEST_CLOCK_LABEL + c
                + "; " + what)).orElseGet(() -> new Provenance(SourceKind.MEASURED, source, null, "measured now " + what));
    }

    /** The table's heading line for rows not measured, which its reader knows them by; none for a measurement. */
    static Optional<String> heading(Provenance p) {
        return p.kind().isMeasuredNow() ? Optional.empty() : Optional.of("# " + p.label());
    }
}
