package org.ncclharness.calibration.resolve;

import java.util.List;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;

/**
 * One table of an input with the facts of its run resolved once: the sweep with its hardware as far as the input
 * and the hints tell it, the hosts' NICs, what was decided that the input did not state, and what is still
 * missing. Every command takes a run's facts from here, so one input has one set of facts everywhere.
 *
 * @param source  the input as the user named it
 * @param sweep   the table, its {@link Sweep#hardware()} filled in
 * @param nics    the hosts' NICs: the hints', else the input's (a dataset's metadata, NCCL's NET/IB lines)
 * @param forcedAlgo the NCCL_ALGO the run forced: a dataset's metadata says, else the log's lines; null for NCCL's
 *                choice
 * @param notes   what was decided for the user to see
 * @param missing what the input and the hints leave unknown, in the order a user would state it
 */
public record ResolvedRun(String source, Sweep sweep, Nics nics, String forcedAlgo, List<ResolveNote> notes,
                          List<Missing> missing) {

    public ResolvedRun {
        notes = List.copyOf(notes);
        missing = List.copyOf(missing);
    }

    public Hardware hardware() {
        return sweep.hardware();
    }

    /** True where nothing is missing. */
    public boolean complete() {
        return missing.isEmpty();
    }
}
