package org.ncclharness.devtools.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;

/**
 * A random nccl-tests table in any layout the reader knows (each generation's leading columns, #wrong or the
 * older error column, -I per-iteration columns, -S timestamps, with or without a column header), behind a
 * random chain of launcher labels, with the rows it must read back to. The one generator of the layout
 * round-trip property and of the fuzz.
 *
 * @param lines    the log's lines
 * @param rowLines for each row, the index of its line in {@code lines}
 * @param rows     what a reader must make of each row
 * @param layout   the layout rendered
 */
public record FuzzTable(List<String> lines, List<Integer> rowLines, List<Measurement> rows, Layout layout) {

    /** Labels launchers put in front of lines; the last is a chain of four. */
    public static final List<String> PREFIXES = List.of("", "0: ", "[1,0]<stdout>:", "(head, rank=0, pid=3808) ",
            "[pod/launcher-abc12/mpi] ", "2024-05-01T12:00:00.123Z ", "node01: ", "> ",
            "2024-05-01T12:00:00Z [pod/launcher-abc12/mpi] (head, rank=0, pid=1) [1,0]<stdout>:",
            "Thu Jul 18 15:41:05 2024<stdout>:", "Fri Mar  1 09:05:00 2024[1,0]<stdout>:");

    /**
     * @param redop     a redop column
     * @param root      a root column
     * @param error     the older error column instead of #wrong
     * @param perIter   -I 1: four per-iteration columns after each half
     * @param timestamp -S 1: a date and a time at the end of each row
     * @param header    a column header (an excerpt has none)
     * @param trailer   the trailer lines after the rows
     */
    public record Layout(boolean redop, boolean root, boolean error, boolean perIter, boolean timestamp,
                         boolean header, boolean trailer, String prefix) {

        /** Tokens in a whole row. */
        public int tokens() {
            return 3 + (redop ? 1 : 0) + (root ? 1 : 0) + 2 * (perIter ? 8 : 4) + (timestamp ? 2 : 0);
        }
    }

    public static FuzzTable random(Random r) {
        boolean header = r.nextBoolean();
        // an excerpt without a header must still show its layout: the -S timestamp shows only in one
        Layout l = new Layout(r.nextBoolean(), r.nextBoolean(), r.nextBoolean(), r.nextBoolean(),
                header && r.nextBoolean(), header, r.nextInt(4) > 0, PREFIXES.get(r.nextInt(PREFIXES.size())));
        int n = 1 + r.nextInt(12);
        List<String> lines = new ArrayList<>();
        List<Integer> rowLines = new ArrayList<>();
        List<Measurement> rows = new ArrayList<>();
        lines.add(l.prefix() + "# Collective test starting: all_reduce_perf");
        if (header) {
            lines.add(l.prefix() + header(l));
        }
        long size = 8;
        for (int i = 0; i < n; i++, size *= 2) {
            long count = 1 + (long) (r.nextDouble() * (1L << 30));
            double time = (1 + r.nextInt(999_999)) / 100.0;
            double alg = r.nextInt(100_000) / 100.0;
            double bus = r.nextInt(100_000) / 100.0;
            int wrong = r.nextInt(4);
            double error = Double.parseDouble(String.format(Locale.ROOT, "%.0e", r.nextInt(10) * 1e-7));
            rowLines.add(lines.size());
            lines.add(l.prefix() + render(l, size, count, time, alg, bus, wrong, error));
            Half h = new Half(time, alg, bus, l.error() ? null : (double) wrong, l.error() ? error : null);
            rows.add(new Measurement(size, count, "float", l.redop() ? "sum" : "none", l.root() ? 0 : -1, h, h));
        }
        if (l.trailer()) {
            lines.add(l.prefix() + "# Out of bounds values : 0 OK");
            lines.add(l.prefix() + "# Avg bus bandwidth    : 12.5 ");
        }
        return new FuzzTable(List.copyOf(lines), List.copyOf(rowLines), List.copyOf(rows), l);
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

    private static String render(Layout l, long size, long count, double time, double alg, double bus, int wrong,
                                 double error) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%12d  %12d  %8s", size, count, "float"));
        if (l.redop()) {
            b.append("     sum");
        }
        if (l.root()) {
            b.append("       0");
        }
        for (int h = 0; h < 2; h++) {
            b.append(String.format(Locale.ROOT, "  %7.2f  %6.2f  %6.2f  %6s", time, alg, bus,
                    l.error() ? String.format(Locale.ROOT, "%.0e", error) : Integer.toString(wrong)));
            if (l.perIter()) {
                b.append(String.format(Locale.ROOT, "  %7.2f  %7.2f  %7.2f  %6.2f", time, time, time, 1.0));
            }
        }
        if (l.timestamp()) {
            b.append("  2025-01-01 00:00:00");
        }
        return b.toString();
    }
}
