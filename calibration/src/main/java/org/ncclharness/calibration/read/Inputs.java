package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.Echo;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.calibration.format.PredictedScale;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Provenance;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.zip.GZIPInputStream;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.CollectiveEvidence;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Reads whatever a user has on disk — an nccl-tests/rccl-tests log, the project's CSV, nccl-tests' or our
 * JSON — telling them apart by content, not by file name. {@code -} is standard input.
 */
public final class Inputs {

    /** How much of a file is looked at to tell its format and refuse binary content. */
    private static final int PEEK_BYTES = 1 << 20;
    /** The largest JSON read whole (a JSON is a tree, parsed at once; a CSV and a log stream, whatever their size). */
    private static final int WHOLE_LIMIT = 512 << 20;
    /** The most characters of a log one string holds (a Java string's limit, less headroom). */
    private static final int LOG_LIMIT = Integer.MAX_VALUE - 64;

    private Inputs() {
    }

    /** The sweeps in a file (a log may hold several tables). */
    public static List<Sweep> read(String name) {
        return read(name, null);
    }

    /**
     * The tables alone, the log streamed past once and only its rows kept: memory bounded by the rows, whatever the
     * size of the log around them.
     *
     * @param given the collective the user states for tables the file does not name; null to decide from the rows
     */
    public static List<Sweep> read(String name, Collective given) {
        return document(name, given, Text.DROP).requireSweeps();
    }

    /** Whether a log's text is kept in its document, for the commands that read its lines again (the diagnosis). */
    public enum Text {
        /** Held whole ({@link LogText}), up to {@link #LOG_LIMIT} characters. */
        KEEP,
        /** Streamed past: the tables and the facts its lines state are kept, the lines are not. */
        DROP
    }

    /** The document with its text kept ({@link Text#KEEP}). */
    public static RunDocument document(String name, Collective given) {
        return document(name, given, Text.KEEP);
    }

    /**
     * Reads a file (or stdin) once: its tables and the facts of its other lines ({@link RunDocument}), gathered in
     * the same pass. A log's text is held ({@link LogText}) only where {@code text} asks; JSON and CSV, which the
     * project writes itself, are read whole up to {@link #WHOLE_LIMIT}. A text with no readable table still gives
     * its document, with the reason ({@link RunDocument#sweepError()}): its NCCL lines may say why the run stopped.
     *
     * @param given the collective the user states ({@code --collective}) for tables the file does not name;
     *              null to decide from the rows
     */
    public static RunDocument document(String name, Collective given, Text text) {
        try (BufferedInputStream in = openDecompressed(name)) {
            in.mark(PEEK_BYTES);
            byte[] head = in.readNBytes(PEEK_BYTES);
            in.reset();
            String first = refuseBinary(name, head);
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
            if (first.startsWith("\uFEFF")) {
                reader.skip(1);
                first = first.substring(1);
            }
            if (SweepJson.looksLikeJson(first)) {
                return parseDocument(name, whole(name, reader), given);
            }
            if (MeasurementCsv.looksLikeCsv(first.lines().findFirst().orElse(""))) {
                return RunDocument.ofText(name, RunDocument.Format.CSV, csvSweeps(name,
                        MeasurementCsv.readTables(name, new DecodingReader(name, reader)), given), null,
                        LogText.EMPTY, null);
            }
            if (first.isBlank() && head.length < PEEK_BYTES) {
                throw empty(name);
            }
            return text == Text.KEEP ? logDocument(name, logText(name, reader), given)
                    : streamed(name, first.lines().findFirst().orElse(""), reader, given);
        } catch (NoSuchFileException e) {
            throw new InputException(name, 0, "no such file");
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new InputException(name, 0, "a damaged gzip file: " + Echo.quote(String.valueOf(e.getMessage())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + OutputFile.reason(e), e);
        }
    }

    public static List<Sweep> parse(String name, String text) {
        return parse(name, text, null);
    }

    public static List<Sweep> parse(String name, String text, Collective given) {
        return parseDocument(name, text, given).requireSweeps();
    }

    /** The document of a text already in memory (a bundled dataset's raw source, a test's). */
    public static RunDocument parseDocument(String name, String text, Collective given) {
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (body.isBlank()) {
            throw empty(name);
        }
        if (SweepJson.looksLikeJson(body)) {
            List<SweepJson.Read> runs;
            try {
                runs = SweepJson.readAll(name, body, given);
            } catch (InputException e) {
                throw JsonNotARun.explain(name, body).orElse(e);
            }
            return RunDocument.ofJson(name, runs);
        }
        String first = body.lines().findFirst().orElse("");
        if (MeasurementCsv.looksLikeCsv(first)) {
            return RunDocument.ofText(name, RunDocument.Format.CSV, csvSweeps(name,
                    MeasurementCsv.readTables(name, body), given), null, LogText.EMPTY, null);
        }
        return logDocument(name, LogText.of(body), given);
    }

    /** A log's document: its tables, or why it has none, and the facts of its lines. */
    private static RunDocument logDocument(String name, LogText text, Collective given) {
        List<String> lines = text.lines();
        String firstLine = lines.isEmpty() ? "" : lines.get(0);
        List<Sweep> sweeps = List.of();
        InputException error = null;
        try {
            sweeps = asLog(name, firstLine, () -> new NcclTestsLogReader(name, given).read(lines));
        } catch (InputException e) {
            error = e;
        }
        return RunDocument.ofText(name, RunDocument.Format.LOG, sweeps, error, text, null);
    }

    /**
     * A log read as it streams past: each line goes to the table reader and to the facts it may state, and none is
     * kept. Where the tables end in an error (a damaged row), the lines after it still give their facts.
     */
    private static RunDocument streamed(String name, String firstLine, BufferedReader reader, Collective given) {
        LineFacts facts = new LineFacts(HardwareFacts.bundled());
        LineIterator lines = new LineIterator(name, reader);
        Iterator<String> seen = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return lines.hasNext();
            }

            @Override
            public String next() {
                String line = lines.next();
                facts.accept(line);
                return line;
            }
        };
        List<Sweep> sweeps = List.of();
        InputException error = null;
        try {
            sweeps = asLog(name, firstLine, () -> new NcclTestsLogReader(name, given).read(seen));
        } catch (InputException e) {
            error = e;
            try {
                seen.forEachRemaining(line -> { });
            } catch (InputException unreadable) {
                // a byte that is not UTF-8 ends the facts where it stands; the first error is the one reported
            }
        }
        return RunDocument.streamed(name, sweeps, error, facts);
    }

    /**
     * A log's whole text, line by line so that a byte that is not UTF-8 is named with its line. Logs of NCCL INFO
     * lines run to gigabytes; one string holds up to {@link #LOG_LIMIT} characters.
     */
    private static LogText logText(String name, BufferedReader reader) {
        StringBuilder b = new StringBuilder();
        for (LineIterator it = new LineIterator(name, reader); it.hasNext(); ) {
            String line = it.next();
            if (b.length() + (long) line.length() + 1 > LOG_LIMIT) {
                throw new InputException(name, it.number, "a log of over " + LOG_LIMIT / (1 << 20) + " Mi characters,"
                        + " more than one reading holds; cut what is not needed (grep -v 'NCCL INFO' keeps the tables,"
                        + " grep 'NCCL' the lines diagnose reads)");
            }
            b.append(line).append('\n');
        }
        return LogText.of(b.toString());
    }

    /** The log reader's tables; where it finds none in another tool's CSV, which CSV is read instead. */
    private static List<Sweep> asLog(String name, String firstLine, java.util.function.Supplier<List<Sweep>> read) {
        try {
            return read.get();
        } catch (InputException e) {
            if (e.line() == 0 && otherCsvHeader(firstLine)) {
                throw new InputException(name, 1, "a CSV header this tool does not read (" + Echo.quote(firstLine)
                        + "): it reads nccl-tests/rccl-tests logs, nccl-tests' -J JSON and its own CSV, whose first"
                        + " line is " + MeasurementCsv.HEADER + " (convert " + Advice.name(Setting.CSV)
                        + " writes it)");
            }
            throw e;
        }
    }

    /** A first line of comma-separated names, as a CSV's header is, that is not this project's. */
    private static boolean otherCsvHeader(String line) {
        String[] cells = line.split(",", -1);
        return cells.length >= 3 && java.util.Arrays.stream(cells).allMatch(c -> c.strip().matches("[A-Za-z_#%(). /-]+"));
    }

    private static InputException empty(String name) {
        return new InputException(name, 0, "empty file; expected an nccl-tests log, a CSV or a JSON file");
    }

    private static InputStream open(String name) throws IOException {
        if (name.equals(Provenance.STANDARD_INPUT)) {
            return new java.io.FilterInputStream(System.in) {
                @Override
                public void close() {
                    // standard input stays open for whoever reads after us
                }
            };
        }
        Path p = Path.of(name);
        if (Files.isDirectory(p)) {
            throw new InputException(name, 0, "is a directory; expected an nccl-tests log, a CSV or a JSON file (for"
                    + " every log in it, pass them: " + name.replaceFirst("/+$", "") + "/*)");
        }
        return Files.newInputStream(p);
    }

    /**
     * The file (or stdin) as a buffered stream, decompressed when it starts with gzip's magic number: logs are
     * often kept compressed. Other compressions (zstd, xz) are named, not read.
     */
    private static BufferedInputStream openDecompressed(String name) throws IOException {
        BufferedInputStream in = new BufferedInputStream(open(name), PEEK_BYTES);
        in.mark(4);
        byte[] magic = in.readNBytes(4);
        in.reset();
        if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
            return new BufferedInputStream(new GZIPInputStream(in, 1 << 16), PEEK_BYTES);
        }
        if (magic.length == 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5 && (magic[2] & 0xff) == 0x2f
                && (magic[3] & 0xff) == 0xfd) {
            in.close();
            throw new InputException(name, 0, "zstd-compressed, which this reader does not decompress: run "
                    + "zstd -d " + name + " first (gzip files are read as they are)");
        }
        return in;
    }

    /** Refuses binary input from its first megabyte (a NUL byte) and returns that megabyte as text. */
    private static String refuseBinary(String name, byte[] head) {
        for (byte b : head) {
            if (b == 0) {
                throw new InputException(name, 0, "binary file; expected an nccl-tests log, a CSV or a JSON file");
            }
        }
        // A multi-byte character may be cut at the end of the peek: decode leniently here, strictly later
        return new String(head, StandardCharsets.UTF_8);
    }

    private static String whole(String name, BufferedReader reader) throws IOException {
        StringBuilder b = new StringBuilder();
        char[] buf = new char[1 << 16];
        for (int n; (n = read(name, reader, buf)) > 0; ) {
            b.append(buf, 0, n);
            if (b.length() > WHOLE_LIMIT) {
                throw new InputException(name, 0, "a JSON file (it starts with '{') of over " + WHOLE_LIMIT / (1 << 20)
                        + " MiB, more than a JSON is read whole: nccl-tests and this project write none that large;"
                        + " convert its source log or CSV instead, which are read as they stream");
            }
        }
        return b.toString();
    }

    private static int read(String name, BufferedReader reader, char[] buf) throws IOException {
        try {
            return reader.read(buf);
        } catch (CharacterCodingException e) {
            throw new InputException(name, 0, "not UTF-8 text; expected an nccl-tests log, a CSV or a JSON file");
        }
    }

    /** A reader whose decoding error (a byte that is not UTF-8) is an input error, as in a log or a JSON. */
    private static final class DecodingReader extends java.io.FilterReader {
        private final String name;

        DecodingReader(String name, BufferedReader in) {
            super(in);
            this.name = name;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            try {
                return super.read(buf, off, len);
            } catch (CharacterCodingException e) {
                throw new InputException(name, 0, "not UTF-8 text; expected an nccl-tests log, a CSV or a JSON file");
            }
        }

        @Override
        public int read() throws IOException {
            char[] one = new char[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }
    }

    /** Lines of a reader, one at a time; a decoding error is an input error naming the line. */
    private static final class LineIterator implements Iterator<String> {
        private final String name;
        private final BufferedReader reader;
        private String next;
        private int number;

        LineIterator(String name, BufferedReader reader) {
            this.name = name;
            this.reader = reader;
        }

        @Override
        public boolean hasNext() {
            if (next == null) {
                try {
                    next = reader.readLine();
                    number++;
                } catch (CharacterCodingException e) {
                    throw new InputException(name, number, "not UTF-8 text; expected an nccl-tests log, a CSV or "
                            + "a JSON file");
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + name + ": " + OutputFile.reason(e), e);
                }
            }
            return next != null;
        }

        @Override
        public String next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            String l = next;
            next = null;
            return l;
        }
    }

    /**
     * A CSV's tables as sweeps, each with the provenance its rows state (a replay or a prediction stays one). A CSV
     * of an earlier release names no collective: each table's is then decided from its rows as for a log without
     * its program name.
     */
    private static List<Sweep> csvSweeps(String name, List<MeasurementCsv.Table> tables, Collective given) {
        List<Sweep> out = new ArrayList<>();
        for (MeasurementCsv.Table t : tables) {
            List<Note> notes = new ArrayList<>();
            if (t.collective() == null) {
                notes.add(Note.info("the CSV has no collective column (an earlier release's)"));
            }
            // The CSV lists no devices: N comes from the rows, as for a log without them; an unknown
            // collective of ours may still be decided from --collective
            Collective named = t.collective() == null || !t.collective().known() ? null : t.collective();
            // a prediction's label names the N (and domains) it was predicted for, as in its text table
            Optional<PredictedScale> predicted = PredictedScale.of(t.provenance());
            CollectiveEvidence e = CollectiveEvidence.decide(named, given,
                    predicted.map(PredictedScale::ranks).orElse(null), t.rows(), true, true);
            Collective c = e.collective();
            notes.addAll(e.notes());
            Hardware ranks = e.ranks() == null ? Hardware.unknown() : Hardware.unknown().withRanks(e.ranks());
            Hardware hw = predicted.map(p -> p.on(ranks)).orElse(ranks);
            out.add(new Sweep(t.provenance(), c, RunInfo.unknown(), hw, List.of(), t.rows(), notes));
        }
        if (out.isEmpty()) {
            throw new InputException(name, 1, "the CSV has a header and no rows");
        }
        return out;
    }
}
