package org.ncclharness.calibration.calibrate;

import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.nccl.ChannelCounts;

/**
 * One sweep to calibrate, with what its metadata says beyond the sweep itself.
 *
 * @param id         bundled dataset id, or the file as the user named it
 * @param sweep      the measurements (hardware filled in from metadata or flags)
 * @param forcedAlgo the NCCL_ALGO the run forced, null when none or unknown
 * @param flags      dataset flags ({@code mixed-configurations} keeps a dataset out of the fit)
 * @param nics       the host's NICs: their count (--nics-per-host, the log's {@code NET/IB : Using} lines, or the
 *                   dataset's metadata) and speed (--nic-gbps, the metadata), each null where nothing says
 * @param ncclEstimates NCCL's own estimates the input carried for this sweep's rows (a sweep's JSON with NCCL
 *                   2.22+), read with the rest of the input so no command opens it again; empty for other inputs
 * @param loggedChannels the channel counts the input's log printed (its {@code LogFacts#channels}, each with its
 *                   communicator's size where stated); empty where it printed none, and for datasets and CSV
 */
public record CalibrationInput(String id, Sweep sweep, String forcedAlgo, List<String> flags, Nics nics,
                               List<NcclEstimate> ncclEstimates, List<ChannelCounts> loggedChannels) {

    public CalibrationInput {
        flags = flags == null ? List.of() : List.copyOf(flags);
        nics = nics == null ? Nics.UNKNOWN : nics;
        ncclEstimates = ncclEstimates == null ? List.of() : List.copyOf(ncclEstimates);
        loggedChannels = loggedChannels == null ? List.of() : List.copyOf(loggedChannels);
    }

    /** An input whose log printed no channel counts (or that has no log). */
    public CalibrationInput(String id, Sweep sweep, String forcedAlgo, List<String> flags, Nics nics,
                            List<NcclEstimate> ncclEstimates) {
        this(id, sweep, forcedAlgo, flags, nics, ncclEstimates, List.of());
    }

    /** An input that carries no NCCL estimates. */
    public CalibrationInput(String id, Sweep sweep, String forcedAlgo, List<String> flags, Nics nics) {
        this(id, sweep, forcedAlgo, flags, nics, List.of());
    }

    /** NICs not known. */
    public CalibrationInput(String id, Sweep sweep, String forcedAlgo, List<String> flags) {
        this(id, sweep, forcedAlgo, flags, Nics.UNKNOWN);
    }

    /**
     * The same input with other measurements (a subset of its rows). NCCL's estimates are left behind: their row
     * indices are the full sweep's.
     */
    public CalibrationInput withSweep(Sweep other) {
        return new CalibrationInput(id, other, forcedAlgo, flags, nics, List.of(), loggedChannels);
    }

    /** The channels NCCL printed for the tested communicator, of the run's N; empty where the log does not say. */
    public Optional<ChannelCounts> channels() {
        Integer n = info().hardware().ranks();
        return n == null ? Optional.empty() : ChannelCounts.forRanks(loggedChannels, n);
    }

    /**
     * The tested communicator's channels where they state its NVLS channels: more than 0, NCCL had NVLS for the run;
     * 0, it had none. Empty where the log does not print the count. Both calibrators take NVLS from here, the fact
     * preferred to what the interconnect's kind suggests.
     */
    public Optional<ChannelCounts> nvlsChannels() {
        return channels().filter(ch -> ch.nvls() != null);
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
