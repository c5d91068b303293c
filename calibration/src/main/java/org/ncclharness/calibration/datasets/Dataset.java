package org.ncclharness.calibration.datasets;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.read.Inputs;
import org.ncclharness.calibration.read.LogText;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.Trailer;

/**
 * A bundled dataset: its metadata and its rows as published (the CSV). {@link #sweep()} is the form every
 * command works with: the configuration filled in from the metadata, and for busbw-only tables the time derived
 * from bus bandwidth, size and N (and said so).
 */
public record Dataset(DatasetMetadata metadata, Supplier<List<Measurement>> rowSource, Supplier<List<String>> raw) {

    /**
     * @param rowSource the rows, parsed the first time they are asked for: a command on one bundled id parses one
     *                  CSV, not the catalog's hundred (about 200 ms of a cold start)
     */
    public Dataset {
        Supplier<List<Measurement>> source = rowSource;
        rowSource = memoized(() -> List.copyOf(source.get()));
        raw = raw == null ? List::of : memoized(raw);
    }

    /** A dataset whose rows are already read. */
    public Dataset(DatasetMetadata metadata, List<Measurement> rows, Supplier<List<String>> raw) {
        this(metadata, () -> rows, raw);
    }

    /** The rows as published (the CSV). */
    public List<Measurement> rows() {
        return rowSource.get();
    }

    /** The raw source's lines, read the first time they are asked for (most commands never do); empty if none. */
    public List<String> rawLines() {
        return raw.get();
    }

    /** The trailer the raw source states. */
    public Trailer trailer() {
        List<String> lines = rawLines();
        return lines.isEmpty() ? Trailer.NONE : RawDataset.parse(id() + ".txt", lines).trailer();
    }

    private static <T> Supplier<T> memoized(Supplier<T> s) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = s.get();
                }
                return value;
            }
        };
    }

    public String id() {
        return metadata.id();
    }

    public Collective collective() {
        return Collective.byName(metadata.collective()).orElse(Collective.ALL_REDUCE);
    }

    public Hardware hardware() {
        DatasetMetadata m = metadata;
        return new Hardware(m.gpuModel(), m.gpus(), m.hosts(), m.domainSize(), m.domains(), m.intra(), m.inter());
    }

    /** One line naming the dataset and its source, for headings and provenance. */
    public String describe() {
        return metadata.id() + (metadata.sourceUrl() == null ? "" : " (" + metadata.sourceUrl() + ")");
    }

    public Sweep sweep() {
        return sweep(SourceKind.DATASET, "dataset " + describe());
    }

    /**
     * The rows as published, with the source's trailer: derived times are a calibration input, not a source
     * value, so a table of the dataset shows none.
     */
    public Sweep published() {
        List<Note> notes = metadata.notes() == null ? List.of() : List.of(Note.info(metadata.notes()));
        return new Sweep(sweep().provenance(), collective(), RunInfo.unknown(), hardware(), List.of(), rows(), notes,
                trailer());
    }

    /**
     * The dataset as one input, read once: its table as published, with the devices and hosts its raw source
     * lists (the CSV has no device lines), the raw text for the lines besides the table, and what the metadata
     * states.
     */
    public RunDocument document() {
        List<String> raw = rawLines();
        Sweep table = published();
        if (!raw.isEmpty()) {
            table = table.withDevices(rawDevices(raw));
        }
        RunDocument.Stated stated = new RunDocument.Stated(id(), metadata.nics(), metadata.algo(),
                metadata.ncclVersion(), metadata.date(), metadata.sourceUrl(), metadata.flags());
        return RunDocument.ofText(id(), RunDocument.Format.DATASET, List.of(table), null,
                LogText.of(String.join("\n", raw)), stated);
    }

    /** The devices the raw source's own lines list; none where its text reads as no log (a summary table). */
    private List<Device> rawDevices(List<String> raw) {
        try {
            List<Sweep> parsed = Inputs.parse(id() + ".txt", String.join("\n", RawDataset.parse(id() + ".txt", raw)
                    .raw()));
            return parsed.isEmpty() ? List.of() : parsed.get(0).devices();
        } catch (InputException | IllegalArgumentException e) {
            return List.of();
        }
    }

    /** The dataset replayed by {@code sweep} on a machine without a GPU: labelled as a replay, never a measurement. */
    public Sweep replay() {
        return sweep(SourceKind.REPLAY, Provenance.REPLAY_LABEL + describe());
    }

    private Sweep sweep(SourceKind kind, String label) {
        List<Note> notes = new ArrayList<>();
        List<Measurement> rows = rows();
        List<Measurement> out = rows;
        boolean busBwOnly = rows.stream().noneMatch(r -> r.outOfPlace().hasTime() || r.inPlace().hasTime());
        if (busBwOnly && metadata.gpus() != null) {
            out = rows.stream().map(r -> withDerivedTime(r, metadata.gpus())).toList();
            notes.add(new Note(Note.Kind.TIME_DERIVED, "time derived from busbw, size and N = " + metadata.gpus()
                    + " (the source gives busbw only)"));
        } else if (busBwOnly) {
            notes.add(Note.info("the source gives busbw only and no GPU count: time cannot be derived"));
        }
        if (metadata.notes() != null) {
            notes.add(Note.info(metadata.notes()));
        }
        // The source's own trailer describes the table as published (see published()); these rows may have
        // derived times, and a replay prints the rows it replays
        return new Sweep(new Provenance(kind, metadata.id(), metadata.id(), label), collective(),
                RunInfo.unknown(), hardware(), List.of(), out, notes);
    }

    /**
     * t = S / algbw, algbw = busbw / factor(N): nccl-tests' own definitions solved for time (nccl-tests
     * doc/PERFORMANCE.md).
     */
    private Measurement withDerivedTime(Measurement r, int ranks) {
        return new Measurement(r.sizeBytes(), r.count(), r.type(), r.redop(), r.root(),
                derive(r.outOfPlace(), r.sizeBytes(), ranks), derive(r.inPlace(), r.sizeBytes(), ranks));
    }

    private Half derive(Half h, long bytes, int ranks) {
        if (h.busBwGBps() == null || h.busBwGBps() <= 0) {
            return h;
        }
        double algBw = h.busBwGBps() / collective().busFactor(ranks);
        return new Half(collective().timeUs(bytes, h.busBwGBps(), ranks), algBw, h.busBwGBps(), h.wrong(), h.maxError());
    }
}
