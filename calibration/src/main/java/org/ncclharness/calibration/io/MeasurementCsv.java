package org.ncclharness.calibration.io;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.RuntimeJsonMappingException;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;

/**
 * The project's CSV: one header row, then one row per measurement with both halves; a field the source lacks
 * is empty. Read and written with Jackson's CSV module.
 */
public final class MeasurementCsv {

    /** The header, exactly (issue 2). */
    public static final List<String> COLUMNS = List.of("size_bytes", "count", "type", "redop", "root",
            "oop_time_us", "oop_algbw_gbps", "oop_busbw_gbps", "oop_wrong",
            "ip_time_us", "ip_algbw_gbps", "ip_busbw_gbps", "ip_wrong");
    public static final String HEADER = String.join(",", COLUMNS);

    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    private static final CsvMapper MAPPER = new CsvMapper()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY);
    private static final CsvSchema SCHEMA = CsvSchema.builder().addColumns(COLUMNS, CsvSchema.ColumnType.STRING)
            .build().withLineSeparator("\n");

    private MeasurementCsv() {
    }

    /** True when the first line of a text is this CSV's header. */
    public static boolean looksLikeCsv(String firstLine) {
        return firstLine.strip().equals(HEADER);
    }

    public static void write(List<Measurement> rows, OutputStream out) throws IOException {
        Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
        w.write(toString(rows));
        w.flush();
    }

    public static String toString(List<Measurement> rows) {
        StringWriter sw = new StringWriter();
        try {
            var writer = MAPPER.writer(SCHEMA.withHeader()).writeValues(sw);
            for (Measurement m : rows) {
                writer.write(new String[] {Long.toString(m.sizeBytes()), Long.toString(m.count()), m.type(),
                    m.redop(), Integer.toString(m.root()),
                    Numbers.plain(m.outOfPlace().timeUs()), Numbers.plain(m.outOfPlace().algBwGBps()),
                    Numbers.plain(m.outOfPlace().busBwGBps()), Numbers.plain(m.outOfPlace().wrong()),
                    Numbers.plain(m.inPlace().timeUs()), Numbers.plain(m.inPlace().algBwGBps()),
                    Numbers.plain(m.inPlace().busBwGBps()), Numbers.plain(m.inPlace().wrong())});
            }
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString();
    }

    /** Reads the CSV; the first bad line is named in the {@link InputException}. */
    public static List<Measurement> read(String file, String text) {
        List<Measurement> rows = new ArrayList<>();
        try (MappingIterator<String[]> it = MAPPER.readerFor(String[].class).with(CsvSchema.emptySchema())
                .readValues(text)) {
            // Quoted fields never span lines in this format, so record k is line k.
            int line = 0;
            while (it.hasNextValue()) {
                String[] f = it.nextValue();
                line++;
                if (line == 1) {
                    if (!String.join(",", f).equals(HEADER)) {
                        throw new InputException(file, 1, "expected the header " + HEADER);
                    }
                    continue;
                }
                rows.add(row(file, line, f));
            }
        } catch (RuntimeJsonMappingException | IOException e) {
            throw new InputException(file, 0, "not a readable CSV: " + e.getMessage().lines().findFirst().orElse(""));
        }
        return rows;
    }

    private static Measurement row(String file, int line, String[] f) {
        if (f.length != COLUMNS.size()) {
            throw new InputException(file, line, "expected " + COLUMNS.size() + " fields (" + HEADER + "), found "
                    + f.length);
        }
        return new Measurement(integer(file, line, f[0], "size_bytes"), integer(file, line, f[1], "count"),
                required(file, line, f[2], "type"), required(file, line, f[3], "redop"),
                (int) integer(file, line, f[4], "root"),
                new Half(opt(file, line, f[5], "oop_time_us"), opt(file, line, f[6], "oop_algbw_gbps"),
                        opt(file, line, f[7], "oop_busbw_gbps"), opt(file, line, f[8], "oop_wrong")),
                new Half(opt(file, line, f[9], "ip_time_us"), opt(file, line, f[10], "ip_algbw_gbps"),
                        opt(file, line, f[11], "ip_busbw_gbps"), opt(file, line, f[12], "ip_wrong")));
    }

    private static String required(String file, int line, String v, String column) {
        if (v.isBlank()) {
            throw new InputException(file, line, column + " is empty");
        }
        return v;
    }

    private static long integer(String file, int line, String v, String column) {
        if (!v.matches("-?\\d{1,18}")) {
            throw new InputException(file, line, column + " '" + v + "' is not an integer");
        }
        return Long.parseLong(v);
    }

    private static Double opt(String file, int line, String v, String column) {
        if (v.isEmpty()) {
            return null;
        }
        if (!NUMBER.matcher(v).matches()) {
            throw new InputException(file, line, column + " '" + v + "' is not a number");
        }
        return Double.valueOf(v);
    }
}
