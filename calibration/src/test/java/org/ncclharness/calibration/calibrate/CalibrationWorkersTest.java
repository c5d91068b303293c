package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;

/** Issue 43: the calibration's output is the same bytes with one worker thread and with two. */
class CalibrationWorkersTest {

    @Test
    void everyBundledRunCalibratesToTheSameBytesOnOneWorkerAndOnTwo() throws IOException {
        HardwareFacts facts = HardwareFacts.bundled();
        List<GlitchExclusion> glitches = CalibrationPipeline.glitches(DatasetCatalog.bundled().all().stream()
                .map(d -> new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags(),
                        d.metadata().nics())).toList(), false);

        String one = outputs(CalibrationPipeline.calibrate(facts, glitches, CalibrationOptions.defaults(),
                Optional.empty(), FitProgress.NONE, new Workers(1)));
        String two = outputs(CalibrationPipeline.calibrate(facts, glitches, CalibrationOptions.defaults(),
                Optional.empty(), FitProgress.NONE, new Workers(2)));

        assertThat(one).contains("\"schema\"").contains("B+beta");
        assertThat(two).isEqualTo(one);
    }

    /** What calibrate prints (the summary, the --verbose table) and writes (--json), one after the other. */
    private static String outputs(CalibrationReport report) throws IOException {
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            CalibrationTable.write(out, report);
            CalibrationSummary.write(out, report, true);
        }
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        CalibrationJson.write(report, json);
        return text + json.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theWorkerCountIsEveryProcessorUnlessTheSystemPropertySaysOtherwise() {
        assertThat(Workers.of(null).count()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(Workers.of(" ").count()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(Workers.of("1").count()).isEqualTo(1);
        assertThat(Workers.of(" 3 ").count()).isEqualTo(3);
        assertThatThrownBy(() -> Workers.of("0")).isInstanceOf(InputException.class)
                .hasMessage("harness.workers: the system property takes a worker count of 1 or more, got '0'; leave"
                        + " it unset to use every processor");
        assertThatThrownBy(() -> Workers.of("two")).isInstanceOf(InputException.class);
    }

    @Test
    void anExceptionLeavesThePoolAsTheWorkThrewIt() {
        InputException thrown = new InputException("run.txt", 3, "expected a size");
        assertThatThrownBy(() -> new Workers(2).run(() -> {
            throw thrown;
        })).isSameAs(thrown);
    }
}
