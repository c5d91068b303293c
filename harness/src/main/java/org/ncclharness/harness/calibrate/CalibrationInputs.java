package org.ncclharness.harness.calibrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.MeasurementCsv;
import org.ncclharness.calibration.io.NcclTestsLogReader;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.report.CalibrationInput;

/**
 * Turns what {@code calibrate} was given into {@link CalibrationInput}s: every bundled dataset, or files (an
 * nccl-tests/rccl-tests log of any generation, or the project CSV) whose missing configuration comes from the
 * command-line flags. A missing fact is named in the error, never guessed.
 */
final class CalibrationInputs {

    /** What the flags say about files that do not say it themselves. */
    record Flags(Integer gpus, Integer nodes, String interconnect, Collective collective) { }

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
            List<Sweep> sweeps = read(p, flags.collective());
            for (int i = 0; i < sweeps.size(); i++) {
                String id = sweeps.size() == 1 ? p.toString() : p + "#" + (i + 1);
                out.add(CalibrationInput.of(id, complete(p.toString(), sweeps.get(i), flags)));
            }
        }
        return out;
    }

    private static List<Sweep> read(Path p, Collective collective) {
        String file = p.toString();
        List<String> lines;
        try {
            lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new InputException(file, 0, "no such file");
        } catch (IOException e) {
            throw new InputException(file, 0, "cannot read: " + e.getMessage());
        }
        if (!lines.isEmpty() && MeasurementCsv.looksLikeCsv(lines.get(0))) {
            Collective c = collective == null ? Collective.ALL_REDUCE : collective;
            List<String> notes = collective == null
                    ? List.of("the CSV does not name its collective: all_reduce assumed (pass --collective)")
                    : List.of();
            return List.of(new Sweep(Provenance.stored(file), c, RunInfo.unknown(), Hardware.unknown(), List.of(),
                    MeasurementCsv.read(file, String.join("\n", lines) + "\n"), notes));
        }
        return new NcclTestsLogReader(file, collective).read(lines);
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
