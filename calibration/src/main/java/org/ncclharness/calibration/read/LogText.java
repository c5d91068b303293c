package org.ncclharness.calibration.read;

import java.util.AbstractList;
import java.util.List;

/**
 * A log's text, held once as one string with the offsets of its lines: every reading of a log (its tables, its
 * NCCL lines, its launch line) takes the lines from here, so a log is read from disk once. One string costs a byte
 * per character for the ASCII text logs are, where a string per line would add about 40 bytes to every line.
 */
public final class LogText {

    /** No text: a CSV's, a JSON's. */
    public static final LogText EMPTY = new LogText("", new int[0], new int[0]);

    private final String text;
    /** Where each line starts and where its content ends (before its line end). */
    private final int[] starts;
    private final int[] ends;

    private LogText(String text, int[] starts, int[] ends) {
        this.text = text;
        this.starts = starts;
        this.ends = ends;
    }

    /** Lines split as {@link String#lines()} splits them: at \n, \r\n or \r; a last line without one counts. */
    public static LogText of(String text) {
        int n = text.length();
        int lines = 0;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 == n || text.charAt(i + 1) != '\n')) {
                lines++;
            }
        }
        boolean open = n > 0 && text.charAt(n - 1) != '\n' && text.charAt(n - 1) != '\r';
        int[] starts = new int[lines + (open ? 1 : 0)];
        int[] ends = new int[starts.length];
        int line = 0;
        int from = 0;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                starts[line] = from;
                ends[line++] = i;
                if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') {
                    i++;
                }
                from = i + 1;
            }
        }
        if (open) {
            starts[line] = from;
            ends[line] = n;
        }
        return new LogText(text, starts, ends);
    }

    /** The lines, without their line ends; each made when it is asked for. */
    public List<String> lines() {
        return new AbstractList<>() {
            @Override
            public String get(int i) {
                return text.substring(starts[i], ends[i]);
            }

            @Override
            public int size() {
                return starts.length;
            }
        };
    }

    public boolean isEmpty() {
        return starts.length == 0;
    }
}
