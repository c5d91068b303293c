package org.ncclharness.calibration.io;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a log with the launcher's label taken off: {@code srun -l}'s {@code 0: } and Open MPI
 * {@code --tag-output}'s {@code [1,0]<stdout>:}, possibly indented (logs pasted into documents).
 *
 * @param number 1-based line number in the file
 * @param text   the line without the label
 */
record LogLine(int number, String text) {

    private static final Pattern LABEL = Pattern.compile("^\\s*(?:\\d+:(?: |$)|\\[\\d+,\\d+\\]<std(?:out|err)>:)");

    static LogLine of(int number, String raw) {
        Matcher m = LABEL.matcher(raw);
        return new LogLine(number, m.find() ? raw.substring(m.end()) : raw);
    }

    /** A {@code #} comment line of nccl-tests (header, preamble, trailer). */
    boolean isComment() {
        return text.stripLeading().startsWith("#");
    }

    /** The text after the leading {@code #}, for comment lines. */
    String commentBody() {
        String s = text.stripLeading();
        return s.startsWith("#") ? s.substring(1) : s;
    }

    /** NCCL's own debug output, which nccl-tests lets through to stdout (reference B). */
    boolean isNcclDebug() {
        return text.contains(" NCCL INFO ") || text.contains(" NCCL WARN ") || text.contains(" NCCL TRACE ");
    }
}
