package org.ncclharness.calibration.measure;

import java.util.List;

/**
 * Measurements plus where they came from: one nccl-tests table (one datatype and op). A sweep is a sweep
 * wherever it came from; writers render it, models fit it, neither asks who produced it.
 *
 * @param notes  facts a reader noticed and a user should see (a truncated row kept, a derived time, ...)
 */
public record Sweep(Provenance provenance, Collective collective, RunInfo run, Hardware hardware,
                    List<Device> devices, List<Measurement> rows, List<String> notes) {

    public Sweep {
        devices = List.copyOf(devices);
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
    }

    public Sweep withProvenance(Provenance p) {
        return new Sweep(p, collective, run, hardware, devices, rows, notes);
    }

    public Sweep withHardware(Hardware h) {
        return new Sweep(provenance, collective, run, h, devices, rows, notes);
    }

    public Sweep withRows(List<Measurement> r) {
        return new Sweep(provenance, collective, run, hardware, devices, r, notes);
    }

    /** N: from the hardware description, else from the {@code # Using devices} lines, else null. */
    public Integer ranks() {
        if (hardware != null && hardware.ranks() != null) {
            return hardware.ranks();
        }
        return devices.isEmpty() ? null : devices.size();
    }
}
