package org.ncclharness.harness.runs;

import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/** How a command names one table of a multi-table log to the user: its collective, type and op. */
public final class TableName {

    private TableName() {
    }

    public static String of(Sweep s) {
        Measurement first = s.rows().get(0);
        return s.collective().testName() + " " + first.type() + (first.redop().equals("none") ? "" : " " + first.redop());
    }
}
