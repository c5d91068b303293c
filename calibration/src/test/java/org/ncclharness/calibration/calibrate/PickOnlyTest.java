package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.fit.twotier.TwoTierFit;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * Issue 43: {@link Scoring#PICK_ONLY} skips the leave-one-out of families that cannot win the pick. The bound it
 * rests on is a theorem only for least squares at a global optimum; the envelopes' optima are local and their β is
 * taken from the sweep's end first, so the pick and its score are checked against {@link Scoring#EVERY_FAMILY} on
 * every bundled run, not assumed.
 */
class PickOnlyTest {

    private static List<CalibrationEntry> every;
    private static List<CalibrationEntry> pickOnly;

    @BeforeAll
    static void calibrateEveryBundledRunBothWays() {
        HardwareFacts facts = HardwareFacts.bundled();
        List<GlitchExclusion> glitches = CalibrationPipeline.glitches(DatasetCatalog.bundled().all().stream()
                .map(d -> new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags(),
                        d.metadata().nics())).toList(), false);
        every = calibrate(facts, glitches, Scoring.EVERY_FAMILY);
        pickOnly = calibrate(facts, glitches, Scoring.PICK_ONLY);
    }

    private static List<CalibrationEntry> calibrate(HardwareFacts facts, List<GlitchExclusion> glitches, Scoring s) {
        return CalibrationPipeline.calibrate(facts, glitches, new CalibrationOptions(null, null, s), Optional.empty(),
                FitProgress.NONE).entries();
    }

    @Test
    void everyBundledRunGetsTheSamePickWithTheSameScoreBitForBit() {
        assertThat(pickOnly).hasSameSizeAs(every);
        int compared = 0;
        for (int i = 0; i < every.size(); i++) {
            CalibrationEntry full = every.get(i);
            CalibrationEntry pruned = pickOnly.get(i);
            assertThat(pruned.getClass()).as(full.dataset().id()).isEqualTo(full.getClass());
            if (full instanceof SingleTierCalibration f && pruned instanceof SingleTierCalibration p) {
                assertThat(p.best()).as(f.dataset().id()).isEqualTo(f.best());
                assertThat(p.bestBasis()).as(f.dataset().id()).isEqualTo(f.bestBasis());
                assertThat(Double.doubleToRawLongBits(p.bestScorePct())).as(f.dataset().id())
                        .isEqualTo(Double.doubleToRawLongBits(f.bestScorePct()));
                assertThat(p.choice().basis()).as(f.dataset().id()).isEqualTo(f.choice().basis());
                assertThat(p.fit(p.best()).orElseThrow()).isEqualTo(f.fit(f.best()).orElseThrow());
                compared++;
            }
            if (full instanceof TwoTierCalibration f && pruned instanceof TwoTierCalibration p) {
                assertThat(p.choice().picked()).as(f.dataset().id()).isEqualTo(f.choice().picked());
                assertThat(p.choice().basis()).as(f.dataset().id()).isEqualTo(f.choice().basis());
                compared++;
            }
            // the row the summary prints (and the JSON's summary holds): model, score, limits, flags
            assertThat(CalibrationSummary.row(pruned)).as(full.dataset().id()).isEqualTo(CalibrationSummary.row(full));
        }
        assertThat(compared).isGreaterThan(80);
        assertThat(summary(pickOnly)).isEqualTo(summary(every));
    }

    @Test
    void familiesAreSkippedAndEverySkippedOneWouldHaveLostThePick() {
        List<String> skipped = new ArrayList<>();
        for (int i = 0; i < every.size(); i++) {
            ModelChoice full = choice(every.get(i));
            ModelChoice pruned = choice(pickOnly.get(i));
            if (full == null) {
                continue;
            }
            // no score at all: the pick took its fallback, and nothing was skipped
            double low = full.families().stream().flatMapToDouble(f -> f.scorePct().stream()).min()
                    .orElse(Double.NaN);
            for (int j = 0; j < pruned.families().size(); j++) {
                ModelChoice.Family p = pruned.families().get(j);
                ModelChoice.Family f = full.families().get(j);
                if (p.scorePct().isEmpty() && f.scorePct().isPresent()) {
                    skipped.add(every.get(i).dataset().id() + " " + f.name());
                    assertThat(f.name()).isNotEqualTo(full.picked());
                    // what the skipped family would have scored: outside the tie band of the lowest
                    assertThat(f.scorePct().getAsDouble()).isGreaterThan(low + ModelChoice.TIE_POINTS);
                } else {
                    assertThat(p).as(every.get(i).dataset().id()).isEqualTo(f);
                }
            }
        }
        // the lever is real: on the bundled runs most of the envelope families cannot win
        assertThat(skipped).hasSizeGreaterThan(20);
    }

    @Test
    void aSkippedFamilyHasNoScoreAnywhereNotEvenAnEstimate() {
        int seen = 0;
        for (CalibrationEntry e : pickOnly) {
            ModelChoice choice = choice(e);
            if (choice == null) {
                continue;
            }
            for (String name : skippedNames(e)) {
                ModelChoice.Family f = choice.families().stream().filter(x -> x.name().equals(name)).findFirst()
                        .orElseThrow();
                assertThat(f.scorePct()).isEqualTo(OptionalDouble.empty());
                assertThat(f.leaveOneOutPct()).isEqualTo(OptionalDouble.empty());
                assertThat(f.estimated()).isFalse();
                assertThat(choice.scores().get(name)).isEqualTo(OptionalDouble.empty());
                assertThat(choice.estimates()).doesNotContainKey(name);
                assertThat(choice.summary()).contains(name + " not scored");
                assertThat(choice.picked()).isNotEqualTo(name);
                seen++;
            }
        }
        assertThat(seen).isGreaterThan(20);
    }

    @Test
    void everyFamilyScoringSkipsNothing() {
        for (CalibrationEntry e : every) {
            assertThat(skippedNames(e)).as(e.dataset().id()).isEmpty();
        }
    }

    /** The fits whose leave-one-out was passed over. */
    private static List<String> skippedNames(CalibrationEntry e) {
        List<String> out = new ArrayList<>();
        if (e instanceof SingleTierCalibration s) {
            s.fits().stream().filter(Fit::leaveOneOutSkipped).map(Fit::name).forEach(out::add);
        }
        if (e instanceof TwoTierCalibration t) {
            t.protocolFits().stream().filter(Fit::leaveOneOutSkipped).map(Fit::name).forEach(out::add);
            t.fits().stream().filter(TwoTierFit::leaveOneOutSkipped).map(f -> f.form().id()).forEach(out::add);
        }
        return out;
    }

    private static ModelChoice choice(CalibrationEntry e) {
        return e instanceof SingleTierCalibration s ? s.choice() : e instanceof TwoTierCalibration t ? t.choice() : null;
    }

    private static String summary(List<CalibrationEntry> entries) {
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            CalibrationSummary.write(out, new CalibrationReport(entries));
        }
        return text.toString();
    }
}
