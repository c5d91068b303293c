package org.ncclharness.calibration.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.SyntheticSweeps;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.CollectiveEvidence;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.WrongRows;

/**
 * A later step acts on a note by its kind, never by its words (issue 40): the same words of another kind change
 * nothing, and other words of the kind do what the kind says.
 */
class NotesDecideByKindTest {

    private static final TwoTierCalibrator TWO = new TwoTierCalibrator(HardwareFacts.bundled());
    private static final Dataset MULTI = DatasetCatalog.bundled()
            .get("h100_allreduce_16gpu_2node_ib_ndr_ncclTests309_qoofyk");

    private static TwoTierCalibration twoTier(List<Note> notes) {
        CalibrationInput in = new CalibrationInput(MULTI.id(), MULTI.sweep().withNotes(notes), MULTI.metadata().algo(),
                MULTI.metadata().flags());
        return (TwoTierCalibration) TWO.calibrate(in, List.of(in));
    }

    @Test
    void aTwoTierFitSaysItsTimesAreDerivedForANoteOfThatKindWhateverItsWords() {
        String said = "times derived from busbw (the source gives busbw only)";
        assertThat(MULTI.sweep().notes()).noneMatch(n -> n.kind() == Note.Kind.TIME_DERIVED);
        TwoTierCalibration kind = twoTier(List.of(new Note(Note.Kind.TIME_DERIVED, "the source printed busbw alone")));
        assertThat(kind.timeDerived()).isTrue();
        assertThat(Note.texts(kind.notes())).contains(said);
        TwoTierCalibration words = twoTier(List.of(Note.info("time derived from busbw, size and N = 16")));
        assertThat(words.timeDerived()).isFalse();
        assertThat(Note.texts(words.notes())).doesNotContain(said);
    }

    @Test
    void theVerboseTableLeavesOutTheFittedHalfByKindAndKeepsTheSameWordsOfAnotherKind() {
        SingleTierCalibration s = (SingleTierCalibration) new SingleTierCalibrator(HardwareFacts.bundled(),
                CalibrationOptions.defaults()).calibrate(new CalibrationInput("synthetic", SyntheticSweeps.ring(
                Collective.ALL_REDUCE, SyntheticSweeps.singleNode("NVIDIA H200", 8, "NVLink4"), 30, 400, 1024,
                1L << 30).withNotes(List.of(Note.info("fitted on the word of an INFO note"))), null, List.of()));
        assertThat(s.notes()).anyMatch(n -> n.kind() == Note.Kind.FITTED_HALF
                && n.text().equals("fitted on the out-of-place half"));
        StringWriter text = new StringWriter();
        CalibrationTable.write(new PrintWriter(text), new CalibrationReport(List.of(s)));
        assertThat(text.toString()).contains("#     fitted on the word of an INFO note")
                .doesNotContain("fitted on the out-of-place half").contains("fit on out-of-place");
    }

    @Test
    void theSummaryFlagsWrongRowsByTheNotesKind() {
        List<Measurement> rows = new ArrayList<>();
        for (long size = 1024; size <= 1 << 20; size *= 2) {
            Half h = new Half(10.0 + size / 1e4, null, null, size == 1024 ? 3.0 : 0.0);
            rows.add(new Measurement(size, size / 4, "float", "sum", -1, h, h));
        }
        Note wrong = WrongRows.note(rows).orElseThrow();
        assertThat(wrong.kind()).isEqualTo(Note.Kind.WRONG_ROWS);
        assertThat(WrongRows.noted(List.of(wrong))).isTrue();
        assertThat(WrongRows.noted(List.of(Note.info(wrong.text())))).isFalse();
    }

    @Test
    void anUndecidedCollectiveIsOneNoteWhoseReasonLeavesOutTheSettingItAsksFor() {
        List<Measurement> rows = new ArrayList<>();
        for (long size = 1 << 10; size <= 1 << 20; size *= 2) {
            // redop none, root -1, size = 8 x count x 4 B: all_gather and alltoall print the same
            double t = 10 + size / 1e4;
            double alg = size / t / 1e3;
            Half h = new Half(t, alg, alg * 7 / 8, size == 1 << 20 ? 1.0 : 0.0);
            rows.add(new Measurement(size, size / 32, "float", "none", -1, h, h));
        }
        CollectiveEvidence e = CollectiveEvidence.decide(null, null, 8, rows, true, true);
        assertThat(e.collective()).isEqualTo(Collective.UNKNOWN);
        Note why = e.notes().stream().filter(n -> n.kind() == Note.Kind.COLLECTIVE_UNKNOWN).findFirst().orElseThrow();
        assertThat(e.notes()).filteredOn(n -> n.kind() == Note.Kind.COLLECTIVE_UNKNOWN).hasSize(1);
        // the words a user reads ask for the collective (plain words here; the command line installs its flags)
        assertThat(why.text()).contains("; pass the collective; 1 of its 11 rows report #wrong > 0");
        assertThat(why.reason()).isEqualTo(why.text().replace("; pass the collective", ""));
        Sweep s = new Sweep(null, e.collective(), null, null, List.of(), rows, e.notes());
        assertThat(Note.any(s.notes(), Note.Kind.COLLECTIVE_UNKNOWN)).isTrue();
    }
}
