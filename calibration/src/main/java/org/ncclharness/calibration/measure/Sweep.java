package org.ncclharness.calibration.measure;

import java.util.List;

/**
 * Measurements plus where they came from: one nccl-tests table (one datatype and op). A sweep is a sweep
 * wherever it came from; writers render it, models fit it, neither asks who produced it.
 *
 * @param notes   facts a reader noticed and a user should see (a truncated row kept, a derived time, ...), each
 *                of the kind a later step acts on
 * @param trailer the source's own trailer lines, {@link Trailer#NONE} when it has none (measured here, or cut)
 */
public record Sweep(Provenance provenance, Collective collective, RunInfo run, Hardware hardware,
                    List<Device> devices, List<Measurement> rows, List<Note> notes, Trailer trailer) {

    public Sweep {
        devices = List.copyOf(devices);
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
        trailer = trailer == null ? Trailer.NONE : trailer;
    }

    /** A sweep whose source states no trailer. */
    public Sweep(Provenance provenance, Collective collective, RunInfo run, Hardware hardware,
                 List<Device> devices, List<Measurement> rows, List<Note> notes) {
        this(provenance, collective, run, hardware, devices, rows, notes, Trailer.NONE);
    }

    public Sweep withProvenance(Provenance p) {
        return new Sweep(p, collective, run, hardware, devices, rows, notes, trailer);
    }

    public Sweep withHardware(Hardware h) {
        return new Sweep(provenance, collective, run, h, devices, rows, notes, trailer);
    }

    public Sweep withDevices(List<Device> d) {
        return new Sweep(provenance, collective, run, hardware, d, rows, notes, trailer);
    }

    public Sweep withNotes(List<Note> n) {
        return new Sweep(provenance, collective, run, hardware, devices, rows, n, trailer);
    }

    /** Other rows: the stated trailer described the old ones, so it is dropped. */
    public Sweep withRows(List<Measurement> r) {
        return new Sweep(provenance, collective, run, hardware, devices, r, notes, Trailer.NONE);
    }


    /** The GPU: the hardware description's model, else the first name the {@code # Using devices} lines give. */
    public String gpuName() {
        if (hardware != null && hardware.gpuModel() != null) {
            return hardware.gpuModel();
        }
        return devices.stream().map(Device::name).filter(n -> n != null && !n.isBlank()).findFirst().orElse(null);
    }

    /**
     * N: from the hardware description, else from the {@code # Using devices} lines where they show every rank (0..N-1,
     * each once), else null. A list its poster cut says only that there were more ranks than it shows: a table kept
     * with the device line of its last rank alone ({@code Rank 1439}) is not of one rank.
     */
    public Integer ranks() {
        if (hardware != null && hardware.ranks() != null) {
            return hardware.ranks();
        }
        long distinct = devices.stream().mapToInt(Device::rank).distinct().count();
        int top = devices.stream().mapToInt(Device::rank).max().orElse(-1);
        return devices.isEmpty() || distinct != devices.size() || top + 1 != devices.size() ? null : devices.size();
    }
}
