package org.ncclharness.calibration.read;

import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.format.SweepJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.CollectiveEvidence;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.RowNames;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * The writers never emit what the readers refuse: any measurement the records hold (any finite non-negative
 * value, a missing one, the largest size a long holds, an error column or a #wrong one) reads back identical
 * through the CSV and the JSON, one table or several, with its collective where the writer knew it.
 */
class WritersReadersTest {

    private static Double value(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> null;
            case 1 -> 0.0;
            case 2 -> Double.MAX_VALUE;
            case 3 -> Double.MIN_VALUE;
            default -> Math.abs(r.nextGaussian()) * Math.pow(10, r.nextInt(40) - 20);
        };
    }

    private static Half half(Random r, boolean error) {
        Double check = value(r);
        return new Half(value(r), value(r), value(r), error ? null : check == null ? null : (double) Math.round(check % 1e6),
                error ? check : null);
    }

    private static Sweep sweep(Random r, Collective c) {
        List<Measurement> rows = new ArrayList<>();
        boolean error = r.nextBoolean();
        for (int i = 0, n = 1 + r.nextInt(8); i < n; i++) {
            long size = r.nextInt(4) == 0 ? Long.MAX_VALUE : (long) (r.nextDouble() * Long.MAX_VALUE / 2) + i;
            rows.add(new Measurement(size, r.nextLong() >>> 1, "float", r.nextBoolean() ? "sum" : "none",
                    r.nextInt(3) - 1, half(r, error), half(r, error)));
        }
        return new Sweep(Provenance.stored("w"), c, RunInfo.unknown(), Hardware.unknown(), List.of(), rows, List.of());
    }

    @Property(tries = 150)
    void anyMeasurementReadsBackIdenticalThroughCsvAndJson(@ForAll long seed) {
        Random r = new Random(seed);
        Collective[] known = {Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.ALL_TO_ALL, Collective.UNKNOWN};
        List<Sweep> tables = new ArrayList<>();
        for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
            tables.add(sweep(r, known[r.nextInt(known.length)]));
        }
        List<Measurement> all = new ArrayList<>();
        tables.forEach(t -> all.addAll(t.rows()));
        assertThat(MeasurementCsv.read("w.csv", MeasurementCsv.toString(tables))).isEqualTo(all);
        List<SweepJson.Read> back = SweepJson.readAll("w.json", SweepJson.writeAll(tables));
        assertThat(back).hasSameSizeAs(tables);
        for (int i = 0; i < tables.size(); i++) {
            assertThat(back.get(i).sweep().rows()).isEqualTo(tables.get(i).rows());
            // a collective the writer knew stays; one it did not know is decided again from the rows, as a CSV's is
            Collective c = tables.get(i).collective();
            assertThat(back.get(i).sweep().collective()).isEqualTo(c.known() ? c
                    : CollectiveEvidence.decide(null, null, null, tables.get(i).rows(), true, true).collective());
        }
    }

    /** Names a row may carry, and the ones no reader takes (empty, a typo, a capital, a space, a comma, a quote). */
    private static final List<String> TYPES = new ArrayList<>(new java.util.TreeSet<>(RowNames.TYPES));
    private static final List<String> OPS = new ArrayList<>(new java.util.TreeSet<>(RowNames.OPS));
    private static final List<String> NOT_NAMES = List.of("", "x", "Float", "sum ", " float", "a,b", "say \"x\"",
            "fl oat", "\u00fcber", "float\n");
    private static final List<String> LABELS = List.of("", " ", "stored measurements: a,b.log", "say \"hi\"",
            "\u00fcber \u2013 run", "two\nlines", "x");

    private static String pick(Random r, List<String> good, boolean bad) {
        return bad ? NOT_NAMES.get(r.nextInt(NOT_NAMES.size())) : good.get(r.nextInt(good.size()));
    }

    private static int root(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> -1;
            case 1 -> 0;
            case 2 -> Integer.MAX_VALUE;
            default -> r.nextInt(1 << 20);
        };
    }

    /** A sweep whose every field a JSON or CSV carries is drawn: names (sometimes not names), roots, provenance. */
    private static Sweep anySweep(Random r) {
        boolean badType = r.nextInt(8) == 0;
        boolean badOp = r.nextInt(8) == 0;
        String type = pick(r, TYPES, badType);
        String op = pick(r, OPS, badOp);
        int root = root(r);
        List<Measurement> rows = new ArrayList<>();
        boolean error = r.nextBoolean();
        long size = 0;
        for (int i = 0, n = 1 + r.nextInt(5); i < n; i++) {
            size += 1 + (long) (r.nextDouble() * (1L << 40));
            rows.add(new Measurement(size, r.nextLong() >>> 1, type, op, root, half(r, error), half(r, error)));
        }
        SourceKind kind = SourceKind.values()[r.nextInt(SourceKind.values().length)];
        String label = LABELS.get(r.nextInt(LABELS.size()));
        Collective c = Collective.values()[r.nextInt(Collective.values().length)];
        return new Sweep(new Provenance(kind, "w", null, label), c, RunInfo.unknown(), Hardware.unknown(), List.of(),
                rows, List.of());
    }

    private static String table(List<Sweep> sweeps) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        sweeps.forEach(s -> NcclTestsTableWriter.write(out, s, List.of()));
        return text.toString();
    }

    private static String key(Measurement m) {
        return m.sizeBytes() + " " + m.count() + " " + m.type() + " " + m.redop() + " " + m.root();
    }

    /**
     * Whatever any reader accepts every writer emits and every reader reads back: the JSON reader and the CSV
     * reader take or refuse the same records (a refusal is an {@link InputException}, never another exception),
     * and what the JSON reader took reads back through the CSV (rows and provenance) and the nccl-tests table
     * (sizes, counts, names and roots).
     */
    @Property(tries = 400)
    void whatOneReaderAcceptsEveryWriterEmitsAndEveryReaderReadsBack(@ForAll long seed) {
        Random r = new Random(seed);
        List<Sweep> tables = new ArrayList<>();
        for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
            tables.add(anySweep(r));
        }
        Throwable jsonRefused = catchThrowable(() -> SweepJson.readAll("w.json", SweepJson.writeAll(tables)));
        Throwable csvRefused = catchThrowable(() -> MeasurementCsv.readTables("w.csv",
                MeasurementCsv.toString(tables)));
        if (jsonRefused != null) {
            assertThat(jsonRefused).isInstanceOf(InputException.class);
        }
        if (csvRefused != null) {
            assertThat(csvRefused).isInstanceOf(InputException.class);
        }
        assertThat(csvRefused == null).as("the CSV reader agrees with the JSON reader: %s / %s", jsonRefused,
                csvRefused).isEqualTo(jsonRefused == null);
        if (jsonRefused != null) {
            return;
        }
        List<Sweep> read = SweepJson.readAll("w.json", SweepJson.writeAll(tables)).stream()
                .map(SweepJson.Read::sweep).toList();
        List<Measurement> rows = new ArrayList<>();
        read.forEach(t -> rows.addAll(t.rows()));
        List<MeasurementCsv.Table> csv = MeasurementCsv.readTables("again.csv", MeasurementCsv.toString(read));
        assertThat(csv.stream().flatMap(t -> t.rows().stream()).toList()).isEqualTo(rows);
        assertThat(csv).allMatch(t -> read.stream().anyMatch(s -> s.provenance().label().equals(
                t.provenance().label()) && s.provenance().kind() == t.provenance().kind()));
        List<Sweep> log = new NcclTestsLogReader("again.txt", null).read(table(read).lines().toList());
        assertThat(log.stream().flatMap(t -> t.rows().stream()).map(WritersReadersTest::key).toList())
                .isEqualTo(rows.stream().map(WritersReadersTest::key).toList());
    }
}
