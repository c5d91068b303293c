package org.ncclharness.calibration.check;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Severity;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.Sweep;

/**
 * One nccl-tests table prints a size once for one datatype, op and root: its loop steps the size up, and `-d all` /
 * `-o all` repeat a size only under another type or op. Two exceptions: sizes below ranks x the datatype round down
 * to 0 (several 0-byte rows), and a `-i` step smaller than that rounding gives one size twice. A non-zero size that
 * comes back is otherwise another job's rows interleaved into this table, as several jobs writing to one log leave
 * it. A WARN, not a FAIL: the device lines, when the log has them, prove it (diagnose's SEPARATE_JOBS FAILs); the
 * rows alone only make a PASS impossible.
 */
final class RepeatedRows {

    private RepeatedRows() {
    }

    static Optional<Finding> of(Sweep run) {
        if (run.rows().stream().mapToLong(Measurement::sizeBytes).distinct().count() < 2) {
            return Optional.empty(); // one size measured again and again: a series of points, not a sweep
        }
        Map<List<Object>, Integer> seen = new LinkedHashMap<>();
        for (Measurement r : run.rows()) {
            if (r.sizeBytes() == 0) {
                continue;
            }
            List<Object> key = List.of(r.sizeBytes(), String.valueOf(r.type()), String.valueOf(r.redop()), r.root());
            int times = seen.merge(key, 1, Integer::sum);
            if (times == 2) {
                return Optional.of(new Finding(Severity.WARN, "several-jobs", r.sizeBytes(), "size "
                        + SizeText.exact(r.sizeBytes()) + " (" + r.type() + " " + r.redop() + ") appears again in"
                        + " one table: several jobs printed into one log mix their rows, and no figure of a mix is"
                        + " one run's (unless a " + Advice.name(Setting.STEP_BYTES) + " step below ranks x the"
                        + " datatype's size rounded two sizes to one); give each job its own output (mpirun"
                        + " --output-filename, one log per job)"));
            }
        }
        return Optional.empty();
    }
}
