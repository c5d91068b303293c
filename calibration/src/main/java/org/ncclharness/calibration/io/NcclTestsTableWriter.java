package org.ncclharness.calibration.io;

import java.io.PrintWriter;
import java.util.List;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Prints a sweep as nccl-tests 2.19.6 prints its table (reference B.1–B.4): the tools people already point at
 * nccl-tests output keep working on ours. A value the source lacks prints as {@code N/A}, which our reader
 * reads back as absent. The lines before the table say where the numbers came from.
 */
public final class NcclTestsTableWriter {

    static final String BANNER = "#                                                              out-of-place"
            + "                       in-place          ";
    static final String COLUMNS = columns("time");
    static final String UNITS = String.format("# %10s  %12s  %8s  %6s  %6s", "(B)", "(elements)", "", "", "")
            + half("(us)", "(GB/s)", "(GB/s)", "") + half("(us)", "(GB/s)", "(GB/s)", "") + " ";

    private NcclTestsTableWriter() {
    }

    /** The column-name line; {@code -C 1} names the time column {@code cputime}. */
    static String columns(String timeLabel) {
        return String.format("# %10s  %12s  %8s  %6s  %6s", "size", "count", "type", "redop", "root")
                + half(timeLabel, "algbw", "busbw", "#wrong") + half(timeLabel, "algbw", "busbw", "#wrong") + " ";
    }

    private static String half(String time, String alg, String bus, String wrong) {
        return String.format("  %7s  %6s  %6s  %6s", time, alg, bus, wrong);
    }

    /** Preamble lines (run facts and devices), as nccl-tests prints them before the table. */
    public static void preamble(PrintWriter out, RunInfo run, List<Device> devices) {
        if (run != null && run.program() != null) {
            out.println("# Collective test starting: " + run.program());
        }
        if (run != null && run.nThread() != null) {
            out.printf("# nThread %d nGpus %d minBytes %d maxBytes %d step: %s warmup iters: %d iters: %d "
                            + "agg iters: %d validation: %d graph: %d unalign: 0%n",
                    run.nThread(), run.nGpus(), run.minBytes(), run.maxBytes(), run.step(),
                    nz(run.warmupIters(), 1), nz(run.iters(), 20), nz(run.aggIters(), 1), nz(run.validation(), 1),
                    nz(run.graph(), 0));
        }
        out.println("#");
        if (!devices.isEmpty()) {
            out.println("# Using devices");
            for (Device d : devices) {
                out.printf("#  Rank %2d Group %2d Pid %6d on %10s device %2d [%s] %s%n", d.rank(),
                        d.group() == null ? 0 : d.group(), d.pid(), d.host(), d.device(), d.busId(), d.name());
            }
            out.println("#");
        }
    }

    private static int nz(Integer v, int dflt) {
        return v == null ? dflt : v;
    }

    /** The three column-header lines. */
    public static void header(PrintWriter out) {
        header(out, "time");
    }

    /** @param timeLabel {@code time}, or {@code cputime} for a {@code -C 1} table */
    public static void header(PrintWriter out, String timeLabel) {
        out.println(BANNER);
        out.println(columns(timeLabel));
        out.println(UNITS);
    }

    /** One result row, {@code %12li  %12li  %8s  %6s  %6i} then both halves. */
    public static String row(Measurement m) {
        return String.format("%12d  %12d  %8s  %6s  %6d", m.sizeBytes(), m.count(), m.type(), m.redop(), m.root())
                + halfRow(m.outOfPlace()) + halfRow(m.inPlace());
    }

    private static String halfRow(Half h) {
        // nccl-tests prints "    N/A" for an unchecked #wrong: one column narrower than "  %6g" (reference B.3).
        return "  " + value(h.timeUs(), 7) + "  " + value(h.algBwGBps(), 6) + "  " + value(h.busBwGBps(), 6)
                + (h.wrong() == null ? "    N/A" : "  " + CFormat.pad(CFormat.g(h.wrong()), 6));
    }

    private static String value(Double v, int width) {
        return v == null ? CFormat.pad("N/A", width) : CFormat.floatStr(v, width);
    }

    /** The trailer: out-of-bounds count and the average bus bandwidth over every printed result. */
    public static void trailer(PrintWriter out, List<Measurement> rows) {
        trailer(out, rows, "");
    }

    /**
     * @param minBwStatus nccl-tests' status after the average: {@code ""} when NCCL_TESTS_MIN_BW is unset,
     *                    {@code "OK"} or {@code "FAILED"} otherwise
     */
    public static void trailer(PrintWriter out, List<Measurement> rows, String minBwStatus) {
        long bad = 0;
        for (Measurement m : rows) {
            for (Half h : new Half[] {m.outOfPlace(), m.inPlace()}) {
                if (h.wrong() != null && h.wrong() > 0) {
                    bad++;
                }
            }
        }
        out.printf("# Out of bounds values : %d %s%n", bad, bad == 0 ? "OK" : "FAILED");
        out.printf("# Avg bus bandwidth    : %s %s%n", CFormat.g(averageBusBw(rows)), minBwStatus);
        out.println("#");
    }

    /** nccl-tests' "Avg bus bandwidth": the mean busbw over every printed result, both placements (A.5). */
    public static double averageBusBw(List<Measurement> rows) {
        double sum = 0;
        int n = 0;
        for (Measurement m : rows) {
            for (Half h : new Half[] {m.outOfPlace(), m.inPlace()}) {
                if (h.busBwGBps() != null) {
                    sum += h.busBwGBps();
                    n++;
                }
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /** nccl-tests' closing lines after the trailer (B.4), when the program is known. */
    public static void conclusion(PrintWriter out, RunInfo run) {
        if (run != null && run.program() != null) {
            out.println("# Collective test concluded: " + run.program());
            out.println("#");
            out.println();
        }
    }

    /**
     * A whole table for one sweep: provenance comment lines, preamble, header, rows, trailer.
     *
     * @param heading comment lines printed first (each must start with {@code #})
     */
    public static void write(PrintWriter out, Sweep sweep, List<String> heading) {
        write(out, sweep, heading, "");
    }

    /** As {@link #write(PrintWriter, Sweep, List)}, with nccl-tests' OK/FAILED after the average (NCCL_TESTS_MIN_BW). */
    public static void write(PrintWriter out, Sweep sweep, List<String> heading, String minBwStatus) {
        write(out, sweep, heading, minBwStatus, "time");
    }

    /** @param timeLabel {@code time}, or {@code cputime} when the rows hold CPU launch times ({@code -C 1}) */
    public static void write(PrintWriter out, Sweep sweep, List<String> heading, String minBwStatus,
                             String timeLabel) {
        heading.forEach(out::println);
        preamble(out, sweep.run(), sweep.devices());
        header(out, timeLabel);
        sweep.rows().forEach(r -> out.println(row(r)));
        trailer(out, sweep.rows(), minBwStatus);
        conclusion(out, sweep.run());
        out.flush();
    }
}
