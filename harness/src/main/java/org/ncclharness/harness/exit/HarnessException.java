package org.ncclharness.harness.exit;

/** A failure with the exit code it maps to (README, "Exit codes"); its message is the one line the user sees. */
public class HarnessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public HarnessException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public HarnessException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
