package org.ncclharness.calibration.measure;

import java.util.List;
import java.util.Optional;

/**
 * Rows whose data check failed ({@code #wrong} above 0): the run produced wrong results, whatever its times say.
 * {@code check} FAILs such a run; {@code calibrate} fits its times as measured, and says so in a note that its
 * summary flags, so that a model is never taken from a broken run unawares.
 */
public final class WrongRows {

    private WrongRows() {
    }

    /** How many rows report wrong elements in either half. */
    public static long count(List<Measurement> rows) {
        return rows.stream().filter(r -> r.outOfPlace().hasWrongElements() || r.inPlace().hasWrongElements()).count();
    }

    /** The note for a calibration of these rows, empty where every data check passed (or none ran). */
    public static Optional<Note> note(List<Measurement> rows) {
        long n = count(rows);
        return n == 0 ? Optional.empty() : Optional.of(new Note(Note.Kind.WRONG_ROWS, n + " of its " + rows.size()
                + " rows report #wrong > 0: nccl-tests' data check failed, so this run produced wrong results (check"
                + " FAILs it); its times are fitted as measured"));
    }

    /** Whether the notes hold {@link #note}'s. */
    public static boolean noted(List<Note> notes) {
        return Note.any(notes, Note.Kind.WRONG_ROWS);
    }
}
