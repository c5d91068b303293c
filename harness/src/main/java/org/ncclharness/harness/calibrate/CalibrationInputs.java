package org.ncclharness.harness.calibrate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.report.CalibrationInput;

/**
 * Turns what {@code calibrate} was given into {@link CalibrationInput}s: every bundled dataset, or files (an
 * nccl-tests/rccl-tests log of any generation, the project CSV, nccl-tests' or our JSON; {@link Inputs} tells
 * them apart) whose missing configuration comes from the command-line flags. A missing fact is named in the error, never guessed.
 */
final class CalibrationInputs {

    /** What the flags say about files that do not say it themselves. */
    record Flags(Integer gpus, Integer nodes, String interconnect) { }

    private CalibrationInputs() {
    }

    static List<CalibrationInput> bundled() {
        List<CalibrationInput> out = new ArrayList<>();
        for (Dataset d : DatasetCatalog.bundled().all()) {
            out.add(new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags()));
        }
        return out;
    }

    static List<CalibrationInput> files(List<Path> files, Flags flags, HardwareFacts facts) {
        if (flags.interconnect() != null && facts.interconnect(flags.interconnect()).isEmpty()) {
            throw new InputException("--interconnect", 0, "unknown interconnect " + flags.interconnect()
                    + "; known: " + String.join(", ", facts.vocabulary()));
        }
        List<CalibrationInput> out = new ArrayList<>();
        for (Path p : files) {
            List<Sweep> sweeps = Inputs.read(p.toString());
            for (int i = 0; i < sweeps.size(); i++) {
                String id = sweeps.size() == 1 ? p.toString() : p + "#" + (i + 1);
                out.add(CalibrationInput.of(id, complete(p.toString(), sweeps.get(i), flags)));
            }
        }
        return out;
    }

    /** Fills N, hosts, domains and the interconnect from the flags where the file does not say them. */
    private static Sweep complete(String file, Sweep s, Flags flags) {
        Hardware h = s.hardware() == null ? Hardware.unknown() : s.hardware();
        Integer ranks = pick(file, "GPU count", h.ranks(), flags.gpus(), "--gpus N");
        Integer hosts = pick(file, "node count", h.hosts(), flags.nodes(), "--nodes N");
        List<String> notes = new ArrayList<>(s.notes());
        if (hosts == null) {
            hosts = 1;
            notes.add("the file does not say how many nodes ran: 1 assumed (pass --nodes N)");
        }
        if (flags.interconnect() == null) {
            throw new InputException(file, 0, "the file does not name its interconnect; pass --interconnect NAME");
        }
        if (ranks % hosts != 0) {
            throw new InputException(file, 0, ranks + " GPUs do not split evenly over " + hosts
                    + " nodes; check --gpus and --nodes");
        }
        int perHost = ranks / hosts;
        // One NVLink domain per host; with one GPU per host the only tier is the network between them.
        Hardware filled = perHost == 1 && hosts > 1
                ? new Hardware(h.gpuModel(), ranks, hosts, 1, hosts, null, flags.interconnect())
                : new Hardware(h.gpuModel(), ranks, hosts, perHost, hosts, flags.interconnect(), null);
        return new Sweep(s.provenance(), s.collective(), s.run(), filled, s.devices(), s.rows(), notes);
    }

    private static Integer pick(String file, String what, Integer fromFile, Integer fromFlag, String flag) {
        if (fromFile != null && fromFlag != null && !fromFile.equals(fromFlag)) {
            throw new InputException(file, 0, "the file's " + what + " is " + fromFile + " but " + flag.split(" ")[0]
                    + " says " + fromFlag + "; drop the flag or fix it");
        }
        Integer v = fromFile != null ? fromFile : fromFlag;
        if (v == null && flag.startsWith("--gpus")) {
            throw new InputException(file, 0, "the file does not say how many GPUs ran (no '# Using devices'"
                    + " lines); pass " + flag);
        }
        if (v != null && v < 1) {
            throw new InputException(file, 0, what + " must be at least 1, got " + v);
        }
        return v;
    }
}
