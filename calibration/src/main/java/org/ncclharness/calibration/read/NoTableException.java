package org.ncclharness.calibration.read;

import org.ncclharness.calibration.measure.InputException;

/**
 * A text that holds no nccl-tests result table. Its own kind because a command may still read the text's other
 * lines: a job that failed before its first size says why in NCCL's lines ({@code check}, {@code diagnose}).
 */
public final class NoTableException extends InputException {
    private static final long serialVersionUID = 1L;

    public NoTableException(String file, int line, String what) {
        super(file, line, what);
    }
}
