package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.InputException;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.measure.Sweep;

/**
 * One input as it was read, once: its tables and every other fact its text states (NCCL's lines, the launch line
 * and its NCCL_* environment, the versions, the NICs, the network NCCL named), and what a bundled dataset's
 * metadata adds. Every command takes what it needs from here, so nothing downstream opens the input again and
 * two commands cannot read one input two ways. The project's JSON keeps the facts ({@link SourceFacts}), so a run's
 * JSON gives the document its log gave, without the text.
 *
 * @param name       the input as the user named it: a path, {@code -} for standard input, or a dataset id
 * @param format     what the input was read as ({@link Format#LIVE}: measured by this harness now)
 * @param sweeps     its tables; empty where {@code sweepError} says why
 * @param sweepError why the text gave no tables (none found, a damaged row), or null: commands that need tables
 *                   throw it ({@link #requireSweeps()}), those that read the other lines go on
 * @param text       a log's text (a bundled dataset's raw source), {@link LogText#EMPTY} for CSV and JSON, null for
 *                   a log read without keeping it ({@link Inputs.Text#DROP}: its facts are gathered as it streams)
 * @param json       a JSON input's runs with their per-iteration samples, empty for other formats
 * @param source     what the input states besides its tables: read from a text's lines, or as a JSON keeps it
 */
public record RunDocument(String name, Format format, List<Sweep> sweeps, InputException sweepError, LogText text,
                          List<SweepJson.Read> json, SourceFacts source) {

    /** What an input was read as. */
    public enum Format { LOG, CSV, JSON, DATASET, LIVE }

    /**
     * What a bundled dataset's metadata states beside its rows; every field null (flags empty) for a file.
     *
     * @param nics       the hosts' NICs as the source states them
     * @param forcedAlgo the NCCL_ALGO the run forced, as the metadata names it
     * @param flags      the metadata's flags ({@code busbw-only}, {@code partial}, ...)
     */
    public record Stated(String datasetId, Nics nics, String forcedAlgo, String ncclVersion, String date,
                         String sourceUrl, List<String> flags) {

        public static final Stated NONE = new Stated(null, Nics.UNKNOWN, null, null, null, null, List.of());
        /** The metadata flag of a source its poster trimmed (an excerpt, not the run cut short). */
        public static final String PARTIAL = "partial";

        public Stated {
            nics = nics == null ? Nics.UNKNOWN : nics;
            flags = flags == null ? List.of() : List.copyOf(flags);
        }

        /** Whether the source is an excerpt its poster trimmed: rows stopping early do not mean the run stopped. */
        public boolean trimmedBySource() {
            return flags.contains(PARTIAL);
        }
    }

    public RunDocument {
        sweeps = List.copyOf(sweeps);
        json = List.copyOf(json);
        source = source == null ? SourceFacts.NONE : source;
    }

    /** A document of a text held whole: the facts of its lines read here, once. */
    public static RunDocument ofText(String name, Format format, List<Sweep> sweeps, InputException sweepError,
                                     LogText text, Stated stated) {
        return new RunDocument(name, format, sweeps, sweepError, text, List.of(),
                SourceFacts.of(text.isEmpty() ? List.of() : text.lines(), stated));
    }

    /**
     * A JSON's document: its runs, and the facts its writer kept (the first run's that keeps any: the tables of one
     * log keep the same); none for nccl-tests' own JSON or one of an earlier release.
     */
    public static RunDocument ofJson(String name, List<SweepJson.Read> runs) {
        SourceFacts kept = SourceFacts.NONE;
        for (int i = 0; i < runs.size() && kept.equals(SourceFacts.NONE); i++) {
            kept = SourceFacts.fromJson(name, runs.get(i).source(), (runs.size() > 1 ? "sweeps[" + i + "]." : "")
                    + "nccl_harness.source");
        }
        return new RunDocument(name, Format.JSON, runs.stream().map(SweepJson.Read::sweep).toList(), null,
                LogText.EMPTY, runs, kept);
    }

    /** A log read as a stream: its tables and the facts its lines stated, its text not kept. */
    static RunDocument streamed(String name, List<Sweep> sweeps, InputException sweepError, LineFacts f) {
        return new RunDocument(name, Format.LOG, sweeps, sweepError, null, List.of(), f.source(null));
    }

    /** A sweep this harness measured now: its facts are the ones the job saw, it has no text. */
    public static RunDocument live(String name, Sweep sweep) {
        return ofText(name, Format.LIVE, List.of(sweep), null, LogText.EMPTY, null);
    }

    /** The tables, or the reason the text has none. */
    public List<Sweep> requireSweeps() {
        if (sweepError != null) {
            throw sweepError;
        }
        return sweeps;
    }

    /**
     * NCCL's own estimates a JSON input carries for one of its tables (a sweep's {@code -J} file with NCCL 2.22+), with
     * row indices into that table; empty for other formats and for tables without them.
     */
    public List<NcclEstimate> ncclEstimates(Sweep table) {
        for (SweepJson.Read r : json) {
            if (r.sweep() == table || r.sweep().rows().equals(table.rows())) {
                return r.ncclEstimates();
            }
        }
        return List.of();
    }

    /** The one run of a JSON input (a sweep's {@code -J} file), with its per-iteration samples. */
    public SweepJson.Read onlyJsonRun() {
        if (json.size() != 1) {
            throw new InputException(name, 0, "holds " + json.size() + " sweeps where one was expected");
        }
        return json.get(0);
    }

    /**
     * The text's lines (none for CSV and JSON).
     *
     * @throws IllegalStateException for a log read without keeping its text ({@link Inputs.Text#DROP}): a command
     *                               that reads the lines asks for them when it reads
     */
    public List<String> lines() {
        if (text == null) {
            throw new IllegalStateException(name + " was read without keeping its text");
        }
        return text.lines();
    }

    /** What the text's lines say besides the tables ({@link LogFacts#none()} without text). */
    public LogFacts facts() {
        return source.log();
    }

    /** The network between hosts NCCL's lines (or the job's environment) name, empty where none does. */
    public Optional<LogNetwork.Named> namedNetwork() {
        return Optional.ofNullable(source.network());
    }

    /** The NET/IB devices NCCL's lines list (device:port/link), in order seen. */
    public List<String> nicDevices() {
        return source.nicDevices();
    }

    /** What a bundled dataset's metadata states, {@link Stated#NONE} for a file. */
    public Stated stated() {
        return source.stated();
    }

    /**
     * The diagnosis of NCCL's lines the input keeps: a JSON's. A log keeps none: its lines are there to be
     * diagnosed (the diagnose package's {@code RunDiagnosis} gives either).
     */
    public Optional<LogDiagnosis> diagnosis() {
        return Optional.ofNullable(source.diagnosis());
    }

    /** The NICs per host: the metadata's, else the count NCCL's lines give (no speed: NCCL prints none). */
    public Nics nics() {
        return stated().nics().orElse(new Nics(facts().nicsPerHost(), null));
    }

    /** True for a bundled dataset. */
    public boolean isDataset() {
        return format == Format.DATASET;
    }
}
