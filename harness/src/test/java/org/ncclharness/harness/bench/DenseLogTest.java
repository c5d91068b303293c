package org.ncclharness.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/** The synthetic timing input of {@code bench calibrate}: labelled, as many sizes as asked, on the run's curve. */
class DenseLogTest {

    @TempDir
    Path tmp;

    @Test
    void manySizesInterpolatedOnTheSourceRunsCurveAndLabelledSynthetic() throws Exception {
        Dataset from = DenseLog.source(DatasetCatalog.bundled().all());
        assertThat(from.metadata().inter()).isNull();
        Path file = tmp.resolve("dense.txt");
        DenseLog.write(from, 1000, file);
        String text = Files.readString(file);
        assertThat(text.lines().findFirst().orElseThrow()).startsWith("# SYNTHETIC timing input for bench calibrate,"
                + " not a measurement: 1000 sizes interpolated (log-log) from bundled dataset " + from.metadata().id());
        List<Sweep> read = Inputs.parse("dense.txt", text);
        List<Measurement> rows = read.get(0).rows();
        assertThat(rows).hasSize(1000);
        assertThat(rows).isSortedAccordingTo(java.util.Comparator.comparingLong(Measurement::sizeBytes));
        // between two measured neighbours, the time lies between theirs
        List<Measurement> measured = from.rows().stream().filter(r -> r.sizeBytes() >= 4).toList();
        Measurement last = measured.get(measured.size() - 1);
        Measurement before = measured.get(measured.size() - 2);
        for (Measurement r : rows) {
            if (r.sizeBytes() > before.sizeBytes() && r.sizeBytes() < last.sizeBytes()) {
                assertThat(r.outOfPlace().timeUs()).isBetween(Math.min(before.outOfPlace().timeUs(),
                        last.outOfPlace().timeUs()) - 0.01, Math.max(before.outOfPlace().timeUs(),
                        last.outOfPlace().timeUs()) + 0.01);
            }
        }
        assertThat(rows.get(0).outOfPlace().timeUs()).isCloseTo(measured.get(0).outOfPlace().timeUs(), within(0.01));
    }
}
