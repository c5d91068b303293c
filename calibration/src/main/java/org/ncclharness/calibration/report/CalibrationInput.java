package org.ncclharness.calibration.report;

import java.util.List;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;

/**
 * One sweep to calibrate, with what its metadata says beyond the sweep itself.
 *
 * @param id         bundled dataset id, or the file as the user named it
 * @param sweep      the measurements (hardware filled in from metadata or flags)
 * @param forcedAlgo the NCCL_ALGO the run forced, null when none or unknown
 * @param flags      dataset flags ({@code mixed-configurations} keeps a dataset out of the fit)
 * @param nicsPerHost NICs per host (--nics-per-host, the log's {@code NET/IB : Using} lines, or the dataset's
 *                    metadata), null when nothing says
 */
public record CalibrationInput(String id, Sweep sweep, String forcedAlgo, List<String> flags, Integer nicsPerHost) {

    public CalibrationInput {
        flags = flags == null ? List.of() : List.copyOf(flags);
    }

    /** NICs per host not known. */
    public CalibrationInput(String id, Sweep sweep, String forcedAlgo, List<String> flags) {
        this(id, sweep, forcedAlgo, flags, null);
    }

    /** The same input with other measurements (a subset of its rows). */
    public CalibrationInput withSweep(Sweep other) {
        return new CalibrationInput(id, other, forcedAlgo, flags, nicsPerHost);
    }

    public static CalibrationInput of(String id, Sweep sweep) {
        return new CalibrationInput(id, sweep, null, List.of());
    }

    /** The report's view of the input; N is filled in from the device lines where the hardware lacks it. */
    DatasetInfo info() {
        Hardware hw = sweep.hardware() == null ? Hardware.unknown() : sweep.hardware();
        if (hw.ranks() == null) {
            hw = hw.withRanks(sweep.ranks());
        }
        return new DatasetInfo(id, sweep.provenance(), sweep.collective().testName(), hw, forcedAlgo, flags);
    }
}
