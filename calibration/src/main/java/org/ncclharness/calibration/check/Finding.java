package org.ncclharness.calibration.check;

import org.ncclharness.calibration.measure.Severity;

/**
 * One thing {@code check} found.
 *
 * @param rule      which rule produced it ({@code min-busbw}, {@code dip}, {@code baseline-warn}, ...)
 * @param sizeBytes the size it concerns, null when it concerns the whole run
 * @param message   one line for the user, with the numbers and the threshold that decided it
 */
public record Finding(Severity severity, String rule, Long sizeBytes, String message) {

    public static Finding info(String rule, String message) {
        return new Finding(Severity.INFO, rule, null, message);
    }
}
