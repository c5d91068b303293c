package org.ncclharness.harness.runs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolveException;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.calibration.resolve.RunResolver;

/**
 * What every command that reads a run accepts: a file (a log, our CSV, a JSON; {@code -} for standard input),
 * or, where no file has that name, a bundled dataset id. One rule and one message for all of them.
 */
public final class RunInputs {

    private RunInputs() {
    }

    /** True when the argument names a file (or stdin) rather than a bundled dataset. */
    public static boolean isFile(String nameOrId) {
        return nameOrId.equals("-") || Files.exists(Path.of(nameOrId));
    }

    /** The bundled dataset the argument names, when no file has that name. */
    public static Optional<Dataset> dataset(String nameOrId) {
        return isFile(nameOrId) ? Optional.empty() : DatasetCatalog.bundled().find(nameOrId);
    }

    /** Every table of the file, or the bundled dataset's one table as published, with its source's trailer. */
    public static List<Sweep> read(String nameOrId) {
        return read(nameOrId, null);
    }

    /**
     * The tables alone: a log streamed past with only its rows kept, whatever its size.
     *
     * @param given {@code --collective}: the collective of tables the file does not name, or null
     */
    public static List<Sweep> read(String nameOrId, Collective given) {
        return document(nameOrId, given, Inputs.Text.DROP).requireSweeps();
    }

    /** The input read once with its text kept, for the commands that read a log's lines (the diagnosis). */
    public static RunDocument document(String nameOrId, Collective given) {
        return document(nameOrId, given, Inputs.Text.KEEP);
    }

    /**
     * The input read once: a file's (or stdin's) document, its text kept or streamed past as {@code text} asks, or a
     * bundled dataset's (its table as published, its raw source's lines and its metadata).
     */
    public static RunDocument document(String nameOrId, Collective given, Inputs.Text text) {
        if (isFile(nameOrId)) {
            return Inputs.document(nameOrId, given, text);
        }
        return dataset(nameOrId).orElseThrow(() -> notFound(nameOrId)).document();
    }

    /**
     * Every table of an input with its facts resolved once ({@link RunResolver}); a contradiction between the
     * input and the flags is the one-line input error naming the flag.
     */
    public static List<ResolvedRun> resolve(RunDocument doc, Hints hints, RunResolver.UnstatedHosts unstated) {
        return doc.requireSweeps().stream().map(t -> resolve(doc, t, hints, unstated)).toList();
    }

    /** One table of an input, resolved. */
    public static ResolvedRun resolve(RunDocument doc, Sweep table, Hints hints, RunResolver.UnstatedHosts unstated) {
        try {
            return RunResolver.bundled().resolve(doc, table, hints, unstated);
        } catch (ResolveException e) {
            throw FactAdvice.error(e);
        }
    }

    /** The one message for an argument that names neither a file nor a bundled dataset. */
    public static InputException notFound(String nameOrId) {
        // a path into the repository's datasets/ from another folder: its name is a bundled id the jar holds
        String name = java.nio.file.Path.of(nameOrId).getFileName() == null ? nameOrId
                : java.nio.file.Path.of(nameOrId).getFileName().toString();
        String id = name.replaceFirst("\\.(txt|csv|json|log)(\\.gz)?$", "");
        if (!id.equals(nameOrId) && dataset(id).isPresent()) {
            return new InputException(nameOrId, 0, "no such file, but " + id + " is a bundled dataset the jar holds:"
                    + " pass " + id);
        }
        return new InputException(nameOrId, 0,
                "neither a file nor a bundled dataset id; `harness.jar datasets` lists the ids");
    }
}
