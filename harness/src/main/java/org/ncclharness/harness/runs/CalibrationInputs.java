package org.ncclharness.harness.runs;

import org.ncclharness.harness.options.PredictedRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.calibration.resolve.RunResolver;


/**
 * Turns what {@code calibrate} was given into {@link CalibrationInput}s: every bundled dataset, or files (an
 * nccl-tests/rccl-tests log of any generation, the project CSV, nccl-tests' or our JSON; {@link Inputs} tells
 * them apart) whose missing configuration comes from the command-line flags. A missing fact is named in the error, never guessed.
 */
public final class CalibrationInputs {

    /**
     * What the flags say about files that do not say it themselves: one tier ({@code interconnect}) or two
     * ({@code intra}, {@code inter}, {@code domainSize}), and {@code collective} for tables whose log does not
     * name its program and whose rows do not tell, {@code nics} for logs that do not print their
     * {@code NET/IB : Using} lines or networks with no fixed NIC rate.
     */
    public record Flags(Integer gpus, Integer nodes, String interconnect, String intra, String inter,
                        Integer domainSize, Collective collective, Nics nics, PredictedRows predicted) {

        public Flags {
            nics = nics == null ? Nics.UNKNOWN : nics;
            predicted = predicted == null ? PredictedRows.refused(PredictedRows.Command.CALIBRATE) : predicted;
        }

        /** What the command line says; predicted tables refused. */
        public Flags(Integer gpus, Integer nodes, String interconnect, String intra, String inter, Integer domainSize,
                     Collective collective, Nics nics) {
            this(gpus, nodes, interconnect, intra, inter, domainSize, collective, nics, null);
        }

        /** What --allow-predicted says of predicted tables (refused without it). */
        public Flags withPredicted(PredictedRows p) {
            return new Flags(gpus, nodes, interconnect, intra, inter, domainSize, collective, nics, p);
        }

        /** One tier: what {@code --gpus}, {@code --nodes}, {@code --interconnect} say. */
        public Flags(Integer gpus, Integer nodes, String interconnect) {
            this(gpus, nodes, interconnect, null, null, null, null, null);
        }

        Flags withConfiguration(Integer g, Integer n) {
            return new Flags(g, n, interconnect, intra, inter, domainSize, collective, nics, predicted);
        }

        /** What the flags state of a run, for what its file does not. */
        public Hints hints() {
            return new Hints(gpus, nodes, interconnect, intra, inter, domainSize, nics);
        }
    }

    private CalibrationInputs() {
    }

    /** Every bundled dataset, as {@code calibrate} with no argument reads them. */
    public static List<CalibrationInput> bundled() {
        List<CalibrationInput> out = new ArrayList<>();
        for (Dataset d : DatasetCatalog.bundled().all()) {
            out.add(of(d));
        }
        return out;
    }

    /** A bundled dataset with what its metadata adds (the forced algorithm, the flags, the NICs). */
    public static CalibrationInput of(Dataset d) {
        return new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags(),
                d.metadata().nics());
    }

    /**
     * A bundled dataset named on the command line: its facts resolved with the flags as a file's are, so a flag
     * fills what its metadata leaves open (the NICs of an EFA run) and one that says otherwise is the same
     * contradiction error; its sweep stays the dataset's.
     */
    public static CalibrationInput of(Dataset d, Flags flags) {
        RunDocument doc = d.document();
        ResolvedRun run = RunInputs.resolve(doc, doc.requireSweeps().get(0), flags.hints(),
                RunResolver.UnstatedHosts.ASSUME_ONE);
        return new CalibrationInput(d.id(), d.sweep(), d.metadata().algo(), d.metadata().flags(), run.nics());
    }

    public static List<CalibrationInput> files(List<Path> files, Flags flags, HardwareFacts facts) {
        return files(files, flags, Map.of(), facts);
    }

    /**
     * @param configs {@code --config FILE=GPUSxHOSTS}: the configuration of files whose logs do not show it
     */
    static List<CalibrationInput> files(List<Path> files, Flags flags, Map<String, String> configs, HardwareFacts facts) {
        checkFlags(flags, facts);
        checkConfigs(files, configs);
        return read(files, flags, configs);
    }

    private static void checkFlags(Flags flags, HardwareFacts facts) {
        for (String[] f : new String[][] {{"--interconnect", flags.interconnect()}, {"--intra", flags.intra()},
            {"--inter", flags.inter()}}) {
            if (f[1] != null) {
                facts.interconnectNamed(f[0], f[1]);
            }
        }
        if (flags.intra() != null && flags.inter() != null) {
            boolean intraJoinsHosts = facts.topologyOf(facts.interconnectNamed("--intra", flags.intra())).betweenHosts();
            boolean interJoinsHosts = facts.topologyOf(facts.interconnectNamed("--inter", flags.inter())).betweenHosts();
            if (intraJoinsHosts && !interJoinsHosts) {
                throw new InputException("--intra", 0, flags.intra() + " is a network between hosts and --inter "
                        + flags.inter() + " a fabric inside one: swapped? pass --intra " + flags.inter() + " --inter "
                        + flags.intra());
            }
        }
        if (flags.domainSize() != null && flags.domainSize() < 1) {
            throw new InputException("--domain-size", 0, "must be at least 1, got " + flags.domainSize());
        }
    }

    private static void checkConfigs(List<Path> files, Map<String, String> configs) {
        for (String f : configs.keySet()) {
            if (files.stream().noneMatch(p -> p.toString().equals(f))) {
                throw new InputException("--config", 0, f + " is not one of the files given");
            }
        }
    }

    private static List<CalibrationInput> read(List<Path> files, Flags flags, Map<String, String> configs) {
        List<CalibrationInput> out = new ArrayList<>();
        for (Path p : files) {
            Flags fileFlags = configuration(configs.get(p.toString()), flags);
            RunDocument doc = Inputs.document(p.toString(), flags.collective(), Inputs.Text.DROP);
            List<Sweep> sweeps = flags.predicted().admit(p.toString(), doc.requireSweeps());
            List<String> skipped = new ArrayList<>();
            for (int i = 0; i < sweeps.size(); i++) {
                String id = sweeps.size() == 1 ? p.toString() : p + "#" + (i + 1);
                Sweep s = sweeps.get(i);
                if (!s.collective().known()) {
                    // No model applies to a table whose collective is not known: say so, fit the others
                    String why = s.notes().stream().filter(n -> n.kind() == Note.Kind.COLLECTIVE_UNKNOWN)
                            .map(Note::text).findFirst().orElse("its collective is unknown");
                    skipped.add(id + " (" + TableName.of(s) + "): " + why);
                    continue;
                }
                ResolvedRun run = RunInputs.resolve(doc, s, fileFlags.hints(), RunResolver.UnstatedHosts.ASSUME_ONE);
                out.add(new CalibrationInput(id, fitted(p.toString(), run), run.forcedAlgo(), List.of(), run.nics(),
                        doc.ncclEstimates(s), doc.facts().channels()));
            }
            if (!skipped.isEmpty() && out.stream().noneMatch(c -> c.id().startsWith(p.toString()))) {
                // every missing fact in one message: a file read here takes its interconnect from the flags
                String fabric = flags.interconnect() == null && flags.intra() == null ? "; nor does it say its"
                        + " interconnect: " + FactAdvice.eitherTier() : "";
                throw new InputException(p.toString(), 0, "no table can be calibrated: " + String.join("; ", skipped)
                        + fabric);
            }
            skipped.forEach(k -> System.err.println("# skipped " + k));
        }
        return out;
    }

    /**
     * A resolved table as the fit takes it: every fact known, its resolution's notes beside the reader's. One rank
     * is refused before any fabric is asked for: no flag makes one rank communicate.
     */
    private static Sweep fitted(String file, ResolvedRun run) {
        if (Integer.valueOf(1).equals(run.hardware().ranks())) {
            throw new InputException(file, 0, "one rank (N = 1) communicates with nobody: its busbw is 0 by"
                    + " definition and its times are a copy inside one GPU, so there is nothing to calibrate; run"
                    + " nccl-tests on 2 or more GPUs (-g 2, or mpirun -np 2)");
        }
        if (!run.complete()) {
            throw new InputException(file, 0, FactAdvice.missing(run.missing()));
        }
        List<Note> notes = new ArrayList<>(run.sweep().notes());
        notes.addAll(Note.info(FactAdvice.notes(run.notes())));
        return run.sweep().withNotes(notes);
    }

    /**
     * Each argument a bundled dataset id (when no such file exists) or a file. Every argument is read before any
     * error is raised, so a folder of old logs with several bad ones names them all at once, one line each.
     */
    public static List<CalibrationInput> bundledOrFiles(List<Path> args, Flags flags, Map<String, String> configs,
                                                 HardwareFacts facts) {
        checkFlags(flags, facts);
        checkConfigs(args, configs);
        return InputErrors.readEach(args, p -> {
            Optional<Dataset> d = RunInputs.dataset(p.toString());
            if (d.isPresent()) {
                return List.of(of(d.get(), flags));
            }
            if (!RunInputs.isFile(p.toString()) && !p.toString().equals("-")) {
                throw RunInputs.notFound(p.toString());
            }
            return read(List.of(p), flags, configs);
        }).stream().flatMap(List::stream).toList();
    }

    /** {@code GPUSxHOSTS} (e.g. {@code 16x2}) over the flags' GPU and node counts; absent: the flags. */
    private static Flags configuration(String text, Flags flags) {
        if (text == null) {
            return flags;
        }
        String[] f = text.trim().toLowerCase(Locale.ROOT).split("x");
        try {
            if (f.length == 2) {
                return flags.withConfiguration(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new InputException("--config", 0, "'" + text + "': expected GPUSxHOSTS, e.g. run.txt=16x2");
    }
}
