package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Glitches;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

class GlitchExclusionTest {

    private static CalibrationInput bundled(String id) {
        var d = DatasetCatalog.bundled().find(id).orElseThrow();
        return new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags());
    }

    /** The row at {@code bytes} with both placements' times multiplied. */
    private static CalibrationInput spiked(CalibrationInput in, long bytes, double oop, double ip) {
        List<Measurement> rows = new ArrayList<>();
        for (Measurement m : in.sweep().rows()) {
            rows.add(m.sizeBytes() != bytes ? m : new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(),
                    m.root(), scaled(m.outOfPlace(), oop), scaled(m.inPlace(), ip)));
        }
        Sweep s = in.sweep().withRows(rows);
        return in.withSweep(s);
    }

    private static Half scaled(Half h, double f) {
        return new Half(h.timeUs() * f, h.algBwGBps() / f, h.busBwGBps() / f, h.wrong(), h.maxError());
    }

    @Test
    void bothKindsAreFoundOncePerSizeAndTheirRowsLeaveTheFit() {
        CalibrationInput in = bundled("a100_allreduce_8gpu_oci_bmgpu48");
        assertThat(GlitchExclusion.of(in, false).glitches()).isEmpty();
        CalibrationInput bad = spiked(spiked(in, 1 << 20, 3, 3), 1 << 24, 1, 2.5);
        GlitchExclusion g = GlitchExclusion.of(bad, false);
        assertThat(g.glitches()).extracting(Glitches.Glitch::bytes).containsExactly((double) (1 << 20),
                (double) (1 << 24));
        assertThat(g.glitches()).extracting(Glitches.Glitch::kind).containsExactly(Glitches.Kind.ABOVE_NEIGHBOURS,
                Glitches.Kind.PLACEMENTS_DISAGREE);
        assertThat(g.excluded()).isTrue();
        assertThat(g.fitted().sweep().rows()).hasSize(in.sweep().rows().size() - 2);
        assertThat(g.original()).isSameAs(bad);
    }

    @Test
    void aRunNoisyThroughoutKeepsItsPointsAndSaysWhy() {
        CalibrationInput in = bundled("a100_allreduce_8gpu_oci_bmgpu48");
        CalibrationInput noisy = in;
        int n = in.sweep().rows().size();
        for (int i = 0; i < n; i += 3) {
            noisy = spiked(noisy, in.sweep().rows().get(i).sizeBytes(), 1, 3);
        }
        GlitchExclusion g = GlitchExclusion.of(noisy, false);
        assertThat(100.0 * g.glitches().size() / n).isGreaterThan(GlitchExclusion.MAX_SHARE_PCT);
        assertThat(g.excluded()).isFalse();
        assertThat(g.fitted()).isSameAs(noisy);
        assertThat(g.why()).contains("the run is noisy throughout");
    }
}
