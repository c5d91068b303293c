package org.ncclharness.harness.runs;

import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.NcclEstimateComparison;

/**
 * For {@code calibrate}: NCCL's own estimate as a third curve beside the measurement and the fitted model, one line
 * per size band of every input that carried it (a sweep's {@code -J} file with NCCL 2.22+), from the inputs as
 * they were read: no file is opened again. Informative only: the fit does not use it.
 */
public final class NcclEstimateNotes {

    private NcclEstimateNotes() {
    }

    /** {@code # ID: INFO measured 2.10× NCCL's own estimate at 1 MiB–16 MiB (...)}, in input order. */
    public static List<String> lines(List<CalibrationInput> inputs) {
        List<String> out = new ArrayList<>();
        for (CalibrationInput in : inputs) {
            for (Finding f : NcclEstimateComparison.findings(in.sweep().rows(), in.ncclEstimates())) {
                out.add("# " + in.id() + ": " + f.severity() + " " + f.message());
            }
        }
        return out;
    }
}
