package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.gpu.TimedLoop;

/**
 * A live run's rows are measured now only where the timed loop read the steady clock; on a test clock they are
 * TEST_CLOCK, labelled so, with a heading line the table's reader knows them by.
 */
class LiveProvenanceTest {

    private static final String WHAT = "on 2 host(s) from h0 by nccl-harness";

    @Test
    void theSteadyClockGivesAMeasurementWithNoHeadingLine() {
        // the surefire JVM has no test clock: what a real run gets
        assertThat(TimedLoop.testClock()).isEmpty();
        Provenance p = LiveProvenance.of("h0", WHAT);
        assertThat(p.kind()).isEqualTo(SourceKind.MEASURED);
        assertThat(p.label()).isEqualTo("measured now on 2 host(s) from h0 by nccl-harness");
        assertThat(LiveProvenance.heading(p)).isEmpty();
    }

    @Test
    void aTestClockGivesRowsLabelledNotMeasuredAndAHeadingLine() {
        Provenance p = LiveProvenance.of("h0", WHAT, Optional.of("the clock in /tmp/c (-Dnccl-harness.loop-clock-file)"));
        assertThat(p.kind()).isEqualTo(SourceKind.TEST_CLOCK);
        assertThat(p.label()).isEqualTo("NOT MEASURED, timed by a test clock: the clock in /tmp/c"
                + " (-Dnccl-harness.loop-clock-file); on 2 host(s) from h0 by nccl-harness");
        assertThat(LiveProvenance.heading(p)).contains("# " + p.label());
    }
}
