package org.ncclharness.calibration.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Random tables rendered in every layout the reader knows (each generation's columns, with or without a
 * header, behind any chain of launcher prefixes) read back to exactly the values rendered.
 */
class LayoutRoundTripTest {

    private static final List<String> PREFIXES = List.of("", "0: ", "[1,0]<stdout>:", "(head, rank=0, pid=3808) ",
            "[pod/launcher-abc12/mpi] ", "2024-05-01T12:00:00.123Z ", "node01: ", "> ",
            "2024-05-01T12:00:00Z [pod/launcher-abc12/mpi] (head, rank=0, pid=1) [1,0]<stdout>:");

    /** What one rendered row holds. */
    record Row(long count, double time, double alg, double bus, int check, double error) { }

    /** A layout: which leading columns, which data-check column, per-iteration columns, a timestamp. */
    record Layout(boolean redop, boolean root, boolean error, boolean perIter, boolean timestamp, boolean header) { }

    @Provide
    Arbitrary<Layout> layouts() {
        return Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, false), Arbitraries.of(true, false),
                Arbitraries.of(true, false), Arbitraries.of(true, false), Arbitraries.of(true, false))
                .as(Layout::new)
                // an excerpt without a header must still show its layout: the -S timestamp only shows in one
                .filter(l -> l.header() || !l.timestamp());
    }

    @Provide
    Arbitrary<List<Row>> tables() {
        Arbitrary<Row> row = Combinators.combine(Arbitraries.longs().between(1, 1L << 30),
                Arbitraries.integers().between(1, 999_999), Arbitraries.integers().between(0, 99_999),
                Arbitraries.integers().between(0, 99_999), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 9))
                .as((count, t, a, b, wrong, err) -> new Row(count, t / 100.0, a / 100.0, b / 100.0, wrong,
                        err == 0 ? 0 : err * 1e-7));
        return row.list().ofMinSize(1).ofMaxSize(12);
    }

    @Property(tries = 300)
    void everyLayoutReadsBackExactly(@ForAll("layouts") Layout l, @ForAll("tables") List<Row> rows,
                                     @ForAll("prefixIndex") int p) {
        String prefix = PREFIXES.get(p);
        List<String> text = new ArrayList<>();
        text.add(prefix + "# Collective test starting: all_reduce_perf");
        if (l.header()) {
            text.add(prefix + header(l));
        }
        long size = 8;
        for (Row r : rows) {
            text.add(prefix + render(l, size, r));
            size *= 2;
        }
        text.add(prefix + "# Out of bounds values : 0 OK");
        List<Sweep> back = new NcclTestsLogReader("t.txt", null).read(text);
        assertThat(back).hasSize(1);
        List<Measurement> got = back.get(0).rows();
        assertThat(got).hasSize(rows.size());
        size = 8;
        for (int i = 0; i < rows.size(); i++, size *= 2) {
            Row r = rows.get(i);
            Measurement m = got.get(i);
            assertThat(m.sizeBytes()).isEqualTo(size);
            assertThat(m.count()).isEqualTo(r.count());
            assertThat(m.root()).isEqualTo(l.root() ? 0 : -1);
            assertThat(m.redop()).isEqualTo(l.redop() ? "sum" : "none");
            for (var h : List.of(m.outOfPlace(), m.inPlace())) {
                assertThat(h.timeUs()).isEqualTo(r.time());
                assertThat(h.algBwGBps()).isEqualTo(r.alg());
                assertThat(h.busBwGBps()).isEqualTo(r.bus());
                if (l.error()) {
                    assertThat(h.maxError()).isEqualTo(Double.valueOf(String.format(Locale.ROOT, "%.0e", r.error())));
                    assertThat(h.wrong()).isNull();
                } else {
                    assertThat(h.wrong()).isEqualTo((double) r.check());
                }
            }
        }
    }

    @Provide
    Arbitrary<Integer> prefixIndex() {
        return Arbitraries.integers().between(0, PREFIXES.size() - 1);
    }

    private static String header(Layout l) {
        StringBuilder b = new StringBuilder("#       size         count      type");
        if (l.redop()) {
            b.append("   redop");
        }
        if (l.root()) {
            b.append("    root");
        }
        for (int h = 0; h < 2; h++) {
            b.append("     time   algbw   busbw ").append(l.error() ? " error" : "#wrong");
            if (l.perIter()) {
                b.append("   i_min   i_max   i_p99   i_cv%");
            }
        }
        if (l.timestamp()) {
            b.append("  timestamp");
        }
        return b.toString();
    }

    private static String render(Layout l, long size, Row r) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%12d  %12d  %8s", size, r.count(), "float"));
        if (l.redop()) {
            b.append("     sum");
        }
        if (l.root()) {
            b.append("       0");
        }
        for (int h = 0; h < 2; h++) {
            b.append(String.format(Locale.ROOT, "  %7.2f  %6.2f  %6.2f  %6s", r.time(), r.alg(), r.bus(),
                    l.error() ? String.format(Locale.ROOT, "%.0e", r.error()) : Integer.toString(r.check())));
            if (l.perIter()) {
                b.append(String.format(Locale.ROOT, "  %7.2f  %7.2f  %7.2f  %6.2f", r.time(), r.time(), r.time(), 1.0));
            }
        }
        if (l.timestamp()) {
            b.append("  2025-01-01 00:00:00");
        }
        return b.toString();
    }
}
