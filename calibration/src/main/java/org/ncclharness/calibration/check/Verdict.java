package org.ncclharness.calibration.check;

import java.util.List;
import org.ncclharness.calibration.measure.Severity;

/** The outcome of {@code check}: FAIL if any finding fails, else WARN if any warns, else PASS. */
public enum Verdict {
    PASS, WARN, FAIL;

    public static Verdict of(List<Finding> findings) {
        Verdict v = PASS;
        for (Finding f : findings) {
            if (f.severity() == Severity.FAIL) {
                return FAIL;
            }
            if (f.severity() == Severity.WARN) {
                v = WARN;
            }
        }
        return v;
    }
}
