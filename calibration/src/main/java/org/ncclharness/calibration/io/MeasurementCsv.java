package org.ncclharness.calibration.io;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.RuntimeJsonMappingException;
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
import org.ncclharness.calibration.measure.Sweep;

/**
 * The project's CSV: one header row, then one row per measurement with both halves, each row naming its
 * collective so that the tables of a multi-table log keep apart; a field the source lacks is empty. The
 * {@code error} columns hold the older nccl-tests' maximum error, the {@code wrong} ones the #wrong count. The
 * CSV of earlier releases (no collective and no error columns) still reads. Read and written with Jackson's
 * CSV module.
 */
public final class MeasurementCsv {

    /** The header, exactly. */
    public static final List<String> COLUMNS = List.of("collective", "size_bytes", "count", "type", "redop",
            "root", "oop_time_us", "oop_algbw_gbps", "oop_busbw_gbps", "oop_wrong", "oop_error",
            "ip_time_us", "ip_algbw_gbps", "ip_busbw_gbps", "ip_wrong", "ip_error");
    public static final String HEADER = String.join(",", COLUMNS);
    /** The header of releases before the collective column: read, never written. */
    static final String LEGACY_HEADER = "size_bytes,count,type,redop,root,oop_time_us,oop_algbw_gbps,"
            + "oop_busbw_gbps,oop_wrong,ip_time_us,ip_algbw_gbps,ip_busbw_gbps,ip_wrong";

    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    private static final CsvMapper MAPPER = new CsvMapper()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY);
    private static final CsvSchema SCHEMA = CsvSchema.builder().addColumns(COLUMNS, CsvSchema.ColumnType.STRING)
            .build().withLineSeparator("\n");

    private MeasurementCsv() {
    }

    /**
     * One table of a CSV: consecutive rows of one collective, type and op.
     *
     * @param collective the collective column's value; null in a CSV of an earlier release, which has none
     */
    public record Table(Collective collective, List<Measurement> rows) { }

    /** True when the first line of a text is this CSV's header (or the earlier one). */
    public static boolean looksLikeCsv(String firstLine) {
        String h = firstLine.strip();
        return h.equals(HEADER) || h.equals(LEGACY_HEADER);
    }

    /** Every sweep's rows, each row naming its sweep's collective. */
    public static String toString(List<Sweep> sweeps) {
        StringWriter sw = new StringWriter();
        try {
            var writer = MAPPER.writer(SCHEMA.withHeader()).writeValues(sw);
            for (Sweep s : sweeps) {
                for (Measurement m : s.rows()) {
                    writer.write(fields(s.collective(), m));
                }
            }
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString();
    }

    /** Rows of one collective. */
    public static String toString(Collective collective, List<Measurement> rows) {
        return toString(List.of(new Sweep(Provenance.stored("-"), collective, RunInfo.unknown(), Hardware.unknown(),
                List.of(), rows, List.of())));
    }

    private static String[] fields(Collective c, Measurement m) {
        Half o = m.outOfPlace();
        Half i = m.inPlace();
        return new String[] {c.testName(), Long.toString(m.sizeBytes()), Long.toString(m.count()), m.type(),
            m.redop(), Integer.toString(m.root()),
            Numbers.plain(o.timeUs()), Numbers.plain(o.algBwGBps()), Numbers.plain(o.busBwGBps()),
            Numbers.plain(o.wrong()), Numbers.plain(o.maxError()),
            Numbers.plain(i.timeUs()), Numbers.plain(i.algBwGBps()), Numbers.plain(i.busBwGBps()),
            Numbers.plain(i.wrong()), Numbers.plain(i.maxError())};
    }

    /** Every row of the CSV, in file order. */
    public static List<Measurement> read(String file, String text) {
        List<Measurement> rows = new ArrayList<>();
        readTables(file, text).forEach(t -> rows.addAll(t.rows()));
        return rows;
    }

    /**
     * The CSV as tables: a new table starts where the collective, type or op changes or the size stops
     * growing (a second run of the same test). The first bad line is named in the {@link InputException}.
     */
    public static List<Table> readTables(String file, String text) {
        List<Table> tables = new ArrayList<>();
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        try (MappingIterator<String[]> it = MAPPER.readerFor(String[].class).with(CsvSchema.emptySchema())
                .readValues(body)) {
            boolean legacy = false;
            boolean header = true;
            String key = null;
            long lastSize = -1;
            List<Measurement> rows = null;
            Collective collective = null;
            while (it.hasNextValue()) {
                // The physical line the record starts on: a quoted field may hold a line break
                int line = it.getCurrentLocation().getLineNr();
                String[] f = it.nextValue();
                if (header) {
                    String h = String.join(",", f).strip();
                    if (!h.equals(HEADER) && !h.equals(LEGACY_HEADER)) {
                        throw new InputException(file, 1, "expected the header " + HEADER);
                    }
                    legacy = h.equals(LEGACY_HEADER);
                    header = false;
                    continue;
                }
                if (f.length == 1 && f[0].isBlank()) {
                    continue;
                }
                int width = legacy ? 13 : COLUMNS.size();
                if (f.length != width) {
                    throw new InputException(file, line, "expected " + width + " fields ("
                            + (legacy ? LEGACY_HEADER : HEADER) + "), found " + f.length);
                }
                Collective c = legacy ? null : collective(file, line, f[0]);
                Measurement m = legacy ? legacyRow(file, line, f) : row(file, line, f);
                String k = (c == null ? "" : c.testName()) + " " + m.type() + " " + m.redop();
                if (rows == null || !k.equals(key) || m.sizeBytes() <= lastSize) {
                    rows = new ArrayList<>();
                    collective = c;
                    tables.add(new Table(collective, rows));
                    key = k;
                }
                rows.add(m);
                lastSize = m.sizeBytes();
            }
        } catch (RuntimeJsonMappingException | IOException e) {
            throw new InputException(file, 0, "not a readable CSV: "
                    + Echo.quote(e.getMessage().lines().findFirst().orElse("")));
        }
        return tables.stream().map(t -> new Table(t.collective(), List.copyOf(t.rows()))).toList();
    }

    private static Collective collective(String file, int line, String v) {
        return Collective.byName(v).orElseThrow(() -> new InputException(file, line, "collective " + Echo.quote(v)
                + " is not one nccl-tests runs (all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, "
                + "sendrecv, gather, scatter, hypercube, or unknown)"));
    }

    private static Measurement row(String file, int line, String[] f) {
        return new Measurement(integer(file, line, f[1], "size_bytes", 0, Long.MAX_VALUE),
                integer(file, line, f[2], "count", 0, Long.MAX_VALUE),
                required(file, line, f[3], "type"), required(file, line, f[4], "redop"),
                (int) integer(file, line, f[5], "root", -1, Integer.MAX_VALUE),
                half(file, line, f, 6, "oop_"), half(file, line, f, 11, "ip_"));
    }

    private static Measurement legacyRow(String file, int line, String[] f) {
        return new Measurement(integer(file, line, f[0], "size_bytes", 0, Long.MAX_VALUE),
                integer(file, line, f[1], "count", 0, Long.MAX_VALUE),
                required(file, line, f[2], "type"), required(file, line, f[3], "redop"),
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

    /** A type or op name: one lowercase word, as nccl-tests prints them (float, bfloat16, sum, none). */
    private static String required(String file, int line, String v, String column) {
        if (v.isBlank()) {
            throw new InputException(file, line, column + " is empty");
        }
        if (!v.matches("[a-z][a-z0-9_]*")) {
            throw new InputException(file, line, column + " " + Echo.quote(v) + " is not a name nccl-tests prints "
                    + "(one lowercase word such as float or sum)");
        }
        return v;
    }

    private static long integer(String file, int line, String v, String column, long min, long max) {
        long n;
        try {
            n = v.matches("-?\\d{1,19}") ? Long.parseLong(v) : Long.MIN_VALUE;
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
