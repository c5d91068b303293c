package org.ncclharness.calibration.format;

/**
 * An output that could not be written: a full disk, a permission, a closed standard output. The message names
 * the file and the real cause; commands map it to exit code 3 (environment; README, "Exit codes").
 */
public class OutputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OutputException(String message, Throwable cause) {
        super(message, cause);
    }
}
