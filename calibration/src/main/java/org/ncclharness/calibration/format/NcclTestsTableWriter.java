package org.ncclharness.calibration.format;

import java.io.PrintWriter;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.measure.Trailer;

/**
 * Prints a sweep as nccl-tests 2.19.6 prints its table (src/util.cu): the tools people already point at
 * nccl-tests output keep working on ours. A value the source lacks prints as {@code N/A}, which our reader
 * reads back as absent. The lines before the table say where the numbers came from.
 */
public final class NcclTestsTableWriter {

    /** How predict heads its tables ({@code # predicted by <model> from <source>}); the reader knows them by it. */
    public static final String PREDICTED_BY = "predicted by ";
    /** What this writer puts after an average it computed because the source stated none. */
    public static final String RECOMPUTED = "(recomputed from the rows shown, not the source's own line)";

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

    /**
     * Preamble lines (run facts and devices), as nccl-tests prints them before the table.
     *
     * @param collective the sweep's collective: where the run names no program, the program nccl-tests would
     *                   have printed for it, so that a reader of this text knows the collective too
     */
    public static void preamble(PrintWriter out, RunInfo run, Collective collective, List<Device> devices) {
        preamble(out, run, collective, devices, List.of());
    }

    /** @param settings lines nccl-tests prints after its parameters' line ({@link TableExtras#settings}) */
    private static void preamble(PrintWriter out, RunInfo run, Collective collective, List<Device> devices,
                                 List<String> settings) {
        String program = program(run, collective);
        if (program != null) {
            out.println("# Collective test starting: " + program);
        }
        if (run != null && run.nThread() != null) {
            out.printf("# nThread %d nGpus %d minBytes %d maxBytes %d step: %s warmup iters: %d iters: %d "
                            + "agg iters: %d validation: %d graph: %d unalign: %d%n",
                    run.nThread(), run.nGpus(), run.minBytes(), run.maxBytes(), run.step(),
                    nz(run.warmupIters(), 1), nz(run.iters(), 20), nz(run.aggIters(), 1), nz(run.validation(), 1),
                    nz(run.graph(), 0), nz(run.unalign(), 0));
        }
        settings.forEach(out::println);
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
        header(out, timeLabel, false);
    }

    /** @param error name the data-check column {@code error}, as the nccl-tests that measured the rows did */
    private static void header(PrintWriter out, String timeLabel, boolean error) {
        out.println(BANNER);
        out.println(error ? columns(timeLabel).replace("#wrong", " error") : columns(timeLabel));
        out.println(UNITS);
    }

    /**
     * The header of a {@code -I 1} table, nccl-tests 2.19.6's: four more columns per placement ({@code i_min i_max
     * i_p99 i_cv%}), with their own banner.
     */
    private static void perIterationHeader(PrintWriter out, String timeLabel) {
        out.println(String.format("# %10s  %12s  %8s  %6s  %6s", "", "", "", "", "")
                + "              out-of-place (+ per-iteration)                                in-place (+ per-iteration)");
        out.println(String.format("# %10s  %12s  %8s  %6s  %6s", "size", "count", "type", "redop", "root")
                + perIterationHalf(timeLabel, "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%")
                + perIterationHalf(timeLabel, "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%") + " ");
        out.println(String.format("# %10s  %12s  %8s  %6s  %6s", "(B)", "(elements)", "", "", "")
                + perIterationHalf("(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)")
                + perIterationHalf("(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)") + " ");
    }

    private static String perIterationHalf(String time, String alg, String bus, String wrong, String min, String max,
                                           String p99, String cv) {
        return half(time, alg, bus, wrong) + String.format("  %7s  %7s  %7s  %7s", min, max, p99, cv);
    }

    /** nccl-tests' {@code writePerIterReport} columns: {@code  %7s} each of min, max, p99 and cv%. */
    private static String perIterationColumns(PerIteration p) {
        if (p == null) {
            return "  " + CFormat.pad("N/A", 7) + "  " + CFormat.pad("N/A", 7) + "  " + CFormat.pad("N/A", 7) + "  "
                    + CFormat.pad("N/A", 7);
        }
        return "  " + CFormat.floatStr(p.minUs(), 7) + "  " + CFormat.floatStr(p.maxUs(), 7) + "  "
                + CFormat.floatStr(p.p99Us(), 7) + "  " + CFormat.floatStr(p.cvPct(), 7);
    }

    /** True when the rows come from a source with the older {@code error} column (and none has #wrong). */
    static boolean usesErrorColumn(List<Measurement> rows) {
        boolean error = false;
        for (Measurement m : rows) {
            for (Half h : new Half[] {m.outOfPlace(), m.inPlace()}) {
                if (h.wrong() != null) {
                    return false;
                }
                error |= h.maxError() != null;
            }
        }
        return error;
    }

    /** One result row, {@code %12li  %12li  %8s  %6s  %6i} then both halves. */
    public static String row(Measurement m) {
        return row(m, false);
    }

    private static String row(Measurement m, boolean error) {
        return String.format("%12d  %12d  %8s  %6s  %6d", m.sizeBytes(), m.count(), m.type(), m.redop(), m.root())
                + halfRow(m.outOfPlace(), error) + halfRow(m.inPlace(), error);
    }

    private static String halfRow(Half h, boolean error) {
        // nccl-tests prints "    N/A" for an unchecked #wrong: one column narrower than "  %6g" (src/util.cu).
        Double check = error ? h.maxError() : h.wrong();
        String shown = check == null ? null : error ? CFormat.exp(check, 0) : CFormat.g(check);
        return "  " + value(h.timeUs(), 7) + "  " + value(h.algBwGBps(), 6) + "  " + value(h.busBwGBps(), 6)
                + (shown == null ? "    N/A" : "  " + CFormat.pad(shown, 6));
    }

    private static String value(Double v, int width) {
        return v == null ? CFormat.pad("N/A", width) : CFormat.floatStr(v, width);
    }

    /** The out-of-bounds line of a predicted table: no data was checked. */
    public static final String PREDICTED_CHECK = "N/A (a prediction: no data was checked)";

    /**
     * The trailer: out-of-bounds values and the average bus bandwidth. What the source stated is printed as it
     * stated it; where a stored source states nothing, the average of the rows is printed and marked as
     * {@link #RECOMPUTED} (a trimmed log's rows do not give the average its run printed).
     *
     * @param minBwStatus nccl-tests' status after the average: {@code ""} when NCCL_TESTS_MIN_BW is unset,
     *                    {@code "OK"} or {@code "FAILED"} otherwise
     */
    public static void trailer(PrintWriter out, Sweep sweep, String minBwStatus) {
        Trailer stated = sweep.trailer();
        long bad = outOfBounds(sweep);
        // A replay prints what nccl-tests would for the rows it replays; a stored source read back is marked, since
        // its own run may have printed another line or none (NCCL 1.x printed none)
        boolean fromSource = switch (sweep.provenance().kind()) {
            case STORED, DATASET -> true;
            case MEASURED, PREDICTED, REPLAY, TEST_CLOCK -> false;
        };
        // a prediction checked no data: '0 OK' would claim a data check that never ran
        boolean predicted = sweep.provenance().kind() == SourceKind.PREDICTED;
        out.printf("# Out of bounds values : %s%n", stated.outOfBounds() != null ? stated.outOfBounds()
                : predicted ? PREDICTED_CHECK : bad + " " + (bad == 0 ? "OK" : "FAILED")
                + (fromSource ? " " + RECOMPUTED : ""));
        String status = minBwStatus;
        if (stated.statesAverage()) {
            status = minBwStatus.isEmpty() && stated.minBwStatus() != null ? stated.minBwStatus() : minBwStatus;
            out.printf("# Avg bus bandwidth    : %s %s%n", CFormat.g(stated.avgBusBwGBps()), status);
        } else {
            out.printf("# Avg bus bandwidth    : %s %s%n", CFormat.g(averageBusBw(sweep.rows())),
                    fromSource ? (status.isEmpty() ? "" : status + " ") + RECOMPUTED : status);
        }
        out.println("#");
    }

    /**
     * The out-of-bounds count: the number the source states, else the halves whose data check counted wrong
     * elements (the older error column counts none: it is a deviation, not a count).
     */
    public static long outOfBounds(Sweep sweep) {
        String stated = sweep.trailer().outOfBounds();
        if (stated != null && stated.matches("\\d{1,18}\\b.*")) {
            return Long.parseLong(stated.split("\\D", 2)[0]);
        }
        long bad = 0;
        for (Measurement m : sweep.rows()) {
            for (Half h : new Half[] {m.outOfPlace(), m.inPlace()}) {
                if (h.hasWrongElements()) {
                    bad++;
                }
            }
        }
        return bad;
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
        if (Double.isInfinite(sum)) {
            // finite values whose sum passes the largest double: their mean is finite, taken term by term
            double mean = 0;
            for (Measurement m : rows) {
                for (Half h : new Half[] {m.outOfPlace(), m.inPlace()}) {
                    mean += h.busBwGBps() == null ? 0 : h.busBwGBps() / n;
                }
            }
            return mean;
        }
        return n == 0 ? 0 : sum / n;
    }

    /** nccl-tests' closing lines after the trailer (B.4), when the program is known. */
    private static void conclusion(PrintWriter out, RunInfo run, Collective collective) {
        String program = program(run, collective);
        if (program != null) {
            out.println("# Collective test concluded: " + program);
            out.println("#");
            out.println();
        }
    }

    /** The program the run names, else the one nccl-tests runs for the collective; null when unknown. */
    private static String program(RunInfo run, Collective collective) {
        if (run != null && run.program() != null) {
            return run.program();
        }
        return collective != null && collective.known() ? collective.testName() + "_perf" : null;
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
        write(out, sweep, heading, minBwStatus, timeLabel, TableExtras.NONE);
    }

    /** @param extras the run's settings lines and, for a {@code -I 1} table, its per-iteration columns */
    public static void write(PrintWriter out, Sweep sweep, List<String> heading, String minBwStatus,
                             String timeLabel, TableExtras extras) {
        heading.forEach(out::println);
        preamble(out, sweep.run(), sweep.collective(), sweep.devices(), extras.settings());
        boolean error = usesErrorColumn(sweep.rows());
        if (extras.perIterationTable()) {
            perIterationHeader(out, timeLabel);
            for (int i = 0; i < sweep.rows().size(); i++) {
                Measurement m = sweep.rows().get(i);
                out.println(String.format("%12d  %12d  %8s  %6s  %6d", m.sizeBytes(), m.count(), m.type(), m.redop(),
                        m.root()) + halfRow(m.outOfPlace(), error)
                        + perIterationColumns(extras.of(i, Placement.OUT_OF_PLACE)) + halfRow(m.inPlace(), error)
                        + perIterationColumns(extras.of(i, Placement.IN_PLACE)));
            }
        } else {
            header(out, timeLabel, error);
            sweep.rows().forEach(r -> out.println(row(r, error)));
        }
        trailer(out, sweep, minBwStatus);
        conclusion(out, sweep.run(), sweep.collective());
        out.flush();
    }
}
