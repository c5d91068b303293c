package org.ncclharness.calibration.format;

import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.RowNames;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The project's CSV: one header row, then one row per measurement with both halves, each row naming its
 * collective so that the tables of a multi-table log keep apart, and where its numbers came from: the
 * {@code provenance} column holds the {@link SourceKind} label ({@code measured}, {@code stored}, {@code dataset},
 * {@code replay}, {@code predicted}) and {@code provenance_label} the line every other output prints for it (e.g.
 * {@code replay of stored measurements: ID (URL)}, {@code predicted by ring formula from ..., for 64 GPUs}). A
 * column on every row, not a line before the header: rows survive being filtered, sorted or concatenated with
 * their provenance, and every CSV tool reads them. A field the source lacks is empty. The {@code error} columns hold
 * the older nccl-tests' maximum error, the {@code wrong} ones the #wrong count. The CSVs of earlier releases (no
 * provenance columns; before that no collective and no error columns either) still read, as stored measurements.
 * Read and written with Jackson's CSV module.
 */
public final class MeasurementCsv {

    /** The header, exactly. */
    public static final List<String> COLUMNS = List.of("collective", "size_bytes", "count", "type", "redop",
            "root", "oop_time_us", "oop_algbw_gbps", "oop_busbw_gbps", "oop_wrong", "oop_error",
            "ip_time_us", "ip_algbw_gbps", "ip_busbw_gbps", "ip_wrong", "ip_error", "provenance",
            "provenance_label");
    public static final String HEADER = String.join(",", COLUMNS);
    /** The header of releases before the provenance columns: read (as stored measurements), never written. */
    static final String UNLABELLED_HEADER = String.join(",", COLUMNS.subList(0, COLUMNS.size() - 2));
    /** The header of releases before the collective column: read, never written. */
    static final String LEGACY_HEADER = "size_bytes,count,type,redop,root,oop_time_us,oop_algbw_gbps,"
            + "oop_busbw_gbps,oop_wrong,ip_time_us,ip_algbw_gbps,ip_busbw_gbps,ip_wrong";

    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    // compiled once: String.matches compiles its pattern on every call, several times a row
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,19}");
    // read with the CSV module's parser alone: a command that reads a bundled run and writes no CSV does not
    // start Jackson's data binding (its mapper), a fifth of a short command's CPU (README, Benchmarks)
    private static final CsvFactory READING = new CsvFactory();
    private static final CsvSchema SCHEMA = CsvSchema.builder().addColumns(COLUMNS, CsvSchema.ColumnType.STRING)
            .build().withLineSeparator("\n");

    private MeasurementCsv() {
    }

    /** The mapper that writes rows, made by the first write. */
    private static final class Writing {
        // quoted only where CSV needs it (a comma, a quote, a line break): a label's spaces do not
        static final CsvMapper MAPPER = new CsvMapper().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING);
    }

    /**
     * One table of a CSV: consecutive rows of one collective, type, op and provenance.
     *
     * @param collective the collective column's value; null in a CSV of an earlier release, which has none
     * @param provenance the provenance columns' kind and label, with the file as its source; stored measurements
     *                   of the file in a CSV of an earlier release, which has no such columns
     */
    public record Table(Collective collective, Provenance provenance, List<Measurement> rows) { }

    /** True when the first line of a text is this CSV's header (or an earlier one). */
    public static boolean looksLikeCsv(String firstLine) {
        String h = firstLine.strip();
        return h.equals(HEADER) || h.equals(UNLABELLED_HEADER) || h.equals(LEGACY_HEADER);
    }

    /** Every sweep's rows, each row naming its sweep's collective. */
    public static String toString(List<Sweep> sweeps) {
        StringWriter sw = new StringWriter();
        try {
            write(sw, sweeps);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString();
    }

    /**
     * As {@link #toString(List)}, row by row to {@code out} (left open): a million rows need no copy of the whole
     * text in memory.
     */
    public static void write(java.io.Writer out, List<Sweep> sweeps) throws IOException {
        var writer = Writing.MAPPER.writer(SCHEMA.withHeader()).writeValues(out);
        for (Sweep s : sweeps) {
            for (Measurement m : s.rows()) {
                writer.write(fields(s.provenance(), s.collective(), m));
            }
        }
        writer.flush();
    }

    /** Rows of one collective. */
    public static String toString(Collective collective, List<Measurement> rows) {
        return toString(List.of(new Sweep(Provenance.stored("-"), collective, RunInfo.unknown(), Hardware.unknown(),
                List.of(), rows, List.of())));
    }

    private static String[] fields(Provenance p, Collective c, Measurement m) {
        Half o = m.outOfPlace();
        Half i = m.inPlace();
        return new String[] {c.testName(), Long.toString(m.sizeBytes()), Long.toString(m.count()), m.type(),
            m.redop(), Integer.toString(m.root()),
            Numbers.plain(o.timeUs()), Numbers.plain(o.algBwGBps()), Numbers.plain(o.busBwGBps()),
            Numbers.plain(o.wrong()), Numbers.plain(o.maxError()),
            Numbers.plain(i.timeUs()), Numbers.plain(i.algBwGBps()), Numbers.plain(i.busBwGBps()),
            Numbers.plain(i.wrong()), Numbers.plain(i.maxError()), p.kind().label(), p.label()};
    }

    /** Every row of the CSV, in file order. */
    public static List<Measurement> read(String file, String text) {
        List<Measurement> rows = new ArrayList<>();
        readTables(file, text).forEach(t -> rows.addAll(t.rows()));
        return rows;
    }

    /**
     * The CSV as tables: a new table starts where the collective, type, op or provenance changes or the size stops
     * growing (a second run of the same test). The first bad line is named in the {@link InputException}.
     */
    public static List<Table> readTables(String file, String text) {
        return readTables(file, new java.io.StringReader(text.startsWith("\uFEFF") ? text.substring(1) : text));
    }

    /**
     * As {@link #readTables(String, String)}, record by record from {@code in}: only the rows are kept. A last row
     * that ends without a line break is read where it is whole (every field, and it continues the table above), as
     * a spreadsheet may save it; where it is not, the file was cut inside that row (an interrupted copy) and is
     * refused at that line rather than read as a short row or a second table. (A CSV of an earlier release ends on
     * a number, which a cut can leave well-formed: its last row then reads as it is.)
     */
    public static List<Table> readTables(String file, java.io.Reader in) {
        List<Table> tables = new ArrayList<>();
        LastCharReader source = new LastCharReader(in);
        try (CsvParser csv = (CsvParser) READING.createParser(source)) {
            csv.setSchema(CsvSchema.emptySchema());
            String header = null;
            String key = null;
            long lastSize = -1;
            List<Measurement> rows = null;
            Record next = Record.next(csv);
            while (next != null) {
                Record record = next;
                next = Record.next(csv);
                // known once the parser is past the end: only then has the reader seen the file's last character
                boolean cut = next == null && !source.endedWithLineBreak();
                int line = record.line();
                String[] f = record.fields();
                if (header == null) {
                    header = String.join(",", f).strip();
                    if (!looksLikeCsv(header)) {
                        throw new InputException(file, 1, "expected the header " + HEADER);
                    }
                    continue;
                }
                if (f.length == 1 && f[0].isBlank()) {
                    continue;
                }
                boolean legacy = header.equals(LEGACY_HEADER);
                int width = header.split(",").length;
                if (f.length != width) {
                    throw new InputException(file, line, cut ? CUT + " after " + f.length + " of its " + width
                            + " fields: " + CUT_FIX : "expected " + width + " fields (" + header + "), found "
                            + f.length);
                }
                Collective c = legacy ? null : collective(file, line, f[0]);
                Measurement m = legacy ? legacyRow(file, line, f) : row(file, line, f);
                Provenance p = header.equals(HEADER) ? provenance(file, line, f[16], f[17]) : Provenance.stored(file);
                String k = (c == null ? "" : c.testName()) + " " + m.type() + " " + m.redop() + " " + p.kind() + " "
                        + p.label();
                if (rows == null || !k.equals(key) || m.sizeBytes() <= lastSize) {
                    if (cut && rows != null) {
                        throw new InputException(file, line, CUT + " and does not continue the table above (its "
                                + "collective, type, op or provenance differ, or its size does not grow): " + CUT_FIX
                                + "; if the row is whole, end the file with a line break");
                    }
                    rows = new ArrayList<>();
                    tables.add(new Table(c, p, rows));
                    key = k;
                }
                rows.add(m);
                lastSize = m.sizeBytes();
            }
        } catch (IOException e) {
            if (source.atEnd() && !source.endedWithLineBreak()) {
                // a quote opened and never closed before the end: the parser's place is the file's last line
                int line = e instanceof JsonProcessingException j && j.getLocation() != null
                        ? j.getLocation().getLineNr() : 0;
                throw new InputException(file, line, CUT + " inside a quoted field: " + CUT_FIX);
            }
            throw new InputException(file, 0, "not a readable CSV: "
                    + Echo.quote(e.getMessage().lines().findFirst().orElse("")));
        }
        return tables.stream().map(t -> new Table(t.collective(), t.provenance(), List.copyOf(t.rows()))).toList();
    }

    private static final String CUT = "the last row ends without a line break";
    private static final String CUT_FIX = "the file looks cut inside that row (an interrupted copy): copy it again,"
            + " or delete the partial row";

    /** One CSV record: its fields, and the physical line it starts on (a quoted field may hold a line break). */
    private record Record(int line, String[] fields) {

        /** The parser's next record, null at the end. */
        static Record next(CsvParser csv) throws IOException {
            if (csv.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            int line = csv.currentLocation().getLineNr();
            List<String> fields = new ArrayList<>();
            while (csv.nextToken() != JsonToken.END_ARRAY) {
                fields.add(csv.getText());
            }
            return new Record(line, fields.toArray(String[]::new));
        }
    }

    /** A reader that remembers the last character it gave, and whether it has given them all. */
    private static final class LastCharReader extends java.io.FilterReader {
        private int last = '\n';
        private boolean atEnd;

        LastCharReader(java.io.Reader in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c >= 0) {
                last = c;
            }
            atEnd = c < 0;
            return c;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) {
                last = buf[off + n - 1];
            }
            atEnd = n < 0;
            return n;
        }

        boolean atEnd() {
            return atEnd;
        }

        /** True for an empty text, which has no row to be cut. */
        boolean endedWithLineBreak() {
            return last == '\n' || last == '\r';
        }
    }

    /** The provenance columns: a kind this project names, and the line that says where the rows came from. */
    private static Provenance provenance(String file, int line, String kind, String label) {
        SourceKind k = SourceKind.byLabel(kind).orElseThrow(() -> new InputException(file, line, "provenance "
                + Echo.quote(kind) + " is not one of " + SourceKind.labels()));
        if (label.isBlank()) {
            throw new InputException(file, line, "provenance_label is empty: say where the rows came from (e.g."
                    + " stored measurements: run.txt)");
        }
        return new Provenance(k, file, null, label);
    }

    private static Collective collective(String file, int line, String v) {
        return Collective.byName(v).orElseThrow(() -> new InputException(file, line, "collective " + Echo.quote(v)
                + " is not one nccl-tests runs (all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, "
                + "sendrecv, gather, scatter, hypercube, or unknown)"));
    }

    private static Measurement row(String file, int line, String[] f) {
        return new Measurement(integer(file, line, f[1], "size_bytes", 0, Long.MAX_VALUE),
                integer(file, line, f[2], "count", 0, Long.MAX_VALUE),
                names(file, line, required(file, line, f[3], "type"), required(file, line, f[4], "redop")), f[4],
                (int) integer(file, line, f[5], "root", -1, Integer.MAX_VALUE),
                half(file, line, f, 6, "oop_"), half(file, line, f, 11, "ip_"));
    }

    private static Measurement legacyRow(String file, int line, String[] f) {
        return new Measurement(integer(file, line, f[0], "size_bytes", 0, Long.MAX_VALUE),
                integer(file, line, f[1], "count", 0, Long.MAX_VALUE),
                names(file, line, required(file, line, f[2], "type"), required(file, line, f[3], "redop")), f[3],
                (int) integer(file, line, f[4], "root", -1, Integer.MAX_VALUE),
                new Half(opt(file, line, f[5], "oop_time_us"), opt(file, line, f[6], "oop_algbw_gbps"),
                        opt(file, line, f[7], "oop_busbw_gbps"), opt(file, line, f[8], "oop_wrong")),
                new Half(opt(file, line, f[9], "ip_time_us"), opt(file, line, f[10], "ip_algbw_gbps"),
                        opt(file, line, f[11], "ip_busbw_gbps"), opt(file, line, f[12], "ip_wrong")));
    }

    private static Half half(String file, int line, String[] f, int at, String prefix) {
        return new Half(opt(file, line, f[at], prefix + "time_us"), opt(file, line, f[at + 1], prefix + "algbw_gbps"),
                opt(file, line, f[at + 2], prefix + "busbw_gbps"), opt(file, line, f[at + 3], prefix + "wrong"),
                opt(file, line, f[at + 4], prefix + "error"));
    }

    /** The type, once it and the op are names every reader accepts ({@link RowNames}). */
    private static String names(String file, int line, String type, String redop) {
        RowNames.problem(type, redop).ifPresent(p -> {
            throw new InputException(file, line, p);
        });
        return type;
    }

    /** A type or op name: one lowercase word, as nccl-tests prints them (float, bfloat16, sum, none). */
    private static String required(String file, int line, String v, String column) {
        if (v.isBlank()) {
            throw new InputException(file, line, column + " is empty");
        }
        if (!NAME.matcher(v).matches()) {
            throw new InputException(file, line, column + " " + Echo.quote(v) + " is not a name nccl-tests prints "
                    + "(one lowercase word such as float or sum)");
        }
        return v;
    }

    private static long integer(String file, int line, String v, String column, long min, long max) {
        long n;
        try {
            n = INTEGER.matcher(v).matches() ? Long.parseLong(v) : Long.MIN_VALUE;
        } catch (NumberFormatException e) {
            n = Long.MIN_VALUE;
        }
        if (n == Long.MIN_VALUE) {
            throw new InputException(file, line, column + " " + Echo.quote(v) + " is not an integer");
        }
        if (n < min || n > max) {
            throw new InputException(file, line, column + " " + v + " is out of range (expected " + min + " to "
                    + max + ")");
        }
        return n;
    }

    private static Double opt(String file, int line, String v, String column) {
        if (v.isEmpty()) {
            return null;
        }
        if (!NUMBER.matcher(v).matches()) {
            throw new InputException(file, line, column + " " + Echo.quote(v) + " is not a number");
        }
        double d = Double.parseDouble(v);
        if (Double.isInfinite(d) || d < 0) {
            throw new InputException(file, line, column + " " + Echo.quote(v) + " is not a finite non-negative number");
        }
        return d;
    }
}
