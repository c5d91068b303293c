package org.ncclharness.harness.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CalibrationProgressBarTest {

    @Test
    void onATerminalTheBarCountsRefitsToTheAnnouncedEnd() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (CalibrationProgressBar bar = new CalibrationProgressBar(new PrintStream(err, true,
                StandardCharsets.UTF_8), true, 0)) {
            bar.started(40);
            bar.started(10);
            IntStream.range(0, 50).parallel().forEach(i -> bar.refitted());
            assertThat(bar.drawn()).isTrue();
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("calibrate: leave-one-out refits").contains("50/50");
    }

    @Test
    void withoutATerminalOrBeforeTheDelayNothingIsDrawn() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(err, true, StandardCharsets.UTF_8);
        try (CalibrationProgressBar pipe = new CalibrationProgressBar(ps, false, 0);
             CalibrationProgressBar quick = new CalibrationProgressBar(ps, true, Long.MAX_VALUE)) {
            for (CalibrationProgressBar b : new CalibrationProgressBar[] {pipe, quick}) {
                b.started(5);
                IntStream.range(0, 5).forEach(i -> b.refitted());
                assertThat(b.drawn()).isFalse();
            }
        }
        assertThat(err.size()).isZero();
    }
}
