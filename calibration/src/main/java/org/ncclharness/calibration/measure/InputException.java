package org.ncclharness.calibration.measure;

import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;

/**
 * Bad input: the message is the one line the user sees, naming the file, the line and what was expected.
 * Commands map it to exit code 2 (README, "Exit codes").
 */
public class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;

    /**
     * @param file   the file as the user named it ({@code -} for stdin)
     * @param line   1-based line number of the first bad line, 0 when the problem is the file as a whole
     * @param what   what was found and what was expected, and how to fix it where that is not obvious
     */
    public InputException(String file, int line, String what) {
        super(line > 0 ? file + ":" + line + ": " + what : file + ": " + what);
        this.file = file;
        this.line = line;
    }

    /**
     * Bad input given as a setting rather than in a file (a joint fit of unlike runs, an unknown dataset): the
     * message starts with the setting as the caller words it ({@code --joint: ...} on the command line).
     */
    public InputException(Setting setting, String what) {
        this(Advice.name(setting), 0, what);
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }
}
