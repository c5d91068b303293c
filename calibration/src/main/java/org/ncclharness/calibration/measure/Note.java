package org.ncclharness.calibration.measure;

import java.util.List;
import java.util.Objects;

/**
 * What a reader or a fit noticed that a user should see: printed by its text, acted on by its kind. No later step
 * searches the words (issue 40); a file keeps the text only, so a note read back from one is {@link Kind#INFO}.
 *
 * @param kind   what a later step may act on
 * @param text   the words a user reads
 * @param reason the words without the setting they ask for, for a command that asks for it in words of its own
 *               ({@code check} of a table whose collective is not known); the text where they ask for none
 */
public record Note(Kind kind, String text, String reason) {

    /** What a later step acts on. */
    public enum Kind {
        /** Only said. */
        INFO,
        /** Why a table's collective is not known: a command that cannot take the table says it. */
        COLLECTIVE_UNKNOWN,
        /** The source gave busbw only, so the times are derived from it: a fit says so. */
        TIME_DERIVED,
        /** Which half of each row a fit took: the calibration table says it in a line of its own. */
        FITTED_HALF,
        /** Rows report {@code #wrong} above 0: the calibration summary flags the entry. */
        WRONG_ROWS
    }

    public Note {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(text);
        reason = reason == null ? text : reason;
    }

    public Note(Kind kind, String text) {
        this(kind, text, text);
    }

    /** A note nothing acts on. */
    public static Note info(String text) {
        return new Note(Kind.INFO, text);
    }

    /** Notes nothing acts on. */
    public static List<Note> info(List<String> texts) {
        return texts.stream().map(Note::info).toList();
    }

    /** The words of each, as a user reads them. */
    public static List<String> texts(List<Note> notes) {
        return notes.stream().map(Note::text).toList();
    }

    /** Whether any is of this kind. */
    public static boolean any(List<Note> notes, Kind kind) {
        return notes.stream().anyMatch(n -> n.kind() == kind);
    }
}
