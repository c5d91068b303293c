package org.ncclharness.harness.live;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.ncclharness.calibration.fit.FitProgress;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.format.CFormat;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.NcclEstimate;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.format.TableExtras;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.SourceFacts;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.CalibrationJson;
import org.ncclharness.calibration.calibrate.CalibrationOptions;
import org.ncclharness.calibration.calibrate.CalibrationPipeline;
import org.ncclharness.calibration.calibrate.CalibrationReport;
import org.ncclharness.calibration.calibrate.CalibrationSummary;
import org.ncclharness.calibration.calibrate.CalibrationTable;
import org.ncclharness.calibration.calibrate.GlitchExclusion;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.calibration.check.CheckReport;
import org.ncclharness.calibration.check.CheckReportWriter;
import org.ncclharness.calibration.check.Finding;
import org.ncclharness.calibration.check.NcclEstimateComparison;
import org.ncclharness.calibration.check.Verdict;
import org.ncclharness.harness.options.OutputTarget;
import org.ncclharness.harness.options.Outputs;
import org.ncclharness.harness.options.VersionInfo;

/**
 * Everything a finished sweep prints and writes, the same for a live run and a replay: one nccl-tests table
 * per combination, the fastest combination per size, the run-to-run spread of {@code -N}, the calibration,
 * the JSON and the CSV, and the exit code (1 below NCCL_TESTS_MIN_BW or with any #wrong, as nccl-tests fails
 * both, for a table measured by this run only: {@link TableStatus}).
 */
final class SweepOutputs {

    /**
     * Facts about the run the tables do not hold: times, NCCL version, dataset flags, extra JSON fields, and what a
     * replay's input stated besides its rows ({@link SourceFacts#NONE} for a run measured now), which the JSON keeps.
     */
    record RunFacts(String startTime, String endTime, Integer ncclVersion, String forcedAlgo, List<String> flags,
                    ObjectNode harness, SourceFacts source) {

        /** A run measured now: no input states more of it than the job saw. */
        RunFacts(String startTime, String endTime, Integer ncclVersion, String forcedAlgo, List<String> flags,
                 ObjectNode harness) {
            this(startTime, endTime, ncclVersion, forcedAlgo, flags, harness, SourceFacts.NONE);
        }
    }

    private final SweepPlan plan;
    private final PrintWriter out;

    SweepOutputs(SweepPlan plan, PrintWriter out) {
        this.plan = plan;
        this.out = out;
    }

    /**
     * After the table, never inside it (it stays nccl-tests' byte for byte): per size, NCCL's own estimate beside the
     * measured out-of-place time, then per size band the ratio as check reports it.
     */
    private void ncclEstimates(SweepResult r) {
        if (r.ncclEstimates().isEmpty()) {
            return;
        }
        out.println("# NCCL's own estimate (ncclGroupSimulateEnd: its tuning model's time for one operation, a"
                + " prediction; nothing was run), beside the measured out-of-place time");
        out.println(String.format(Locale.ROOT, "#%12s %12s %14s %18s", "size", "time(us)", "estimate(us)",
                "measured/estimate"));
        for (NcclEstimate e : r.ncclEstimates()) {
            Measurement m = r.sweep().rows().get(e.row());
            out.println(String.format(Locale.ROOT, "#%12d %12.2f %14.2f %18.2f", m.sizeBytes(),
                    m.outOfPlace().timeUs(), e.timeUs(), NcclEstimateComparison.ratio(m, e.timeUs())));
        }
        for (Finding f : NcclEstimateComparison.findings(r.sweep().rows(), r.ncclEstimates())) {
            out.println("# " + f.severity() + " " + f.message());
        }
    }

    int emit(List<SweepResult> results, List<String> heading, RunFacts facts) {
        if (plan.json() != null) {
            out.println("# Writing JSON output to " + (plan.json().isStdout() ? "standard output"
                    : plan.json()) + (results.size() > 1
                    ? " (one file per combination: " + String.join(", ", names(plan.json().file().orElseThrow(), results)) + ")" : ""));
        }
        boolean anyFailed = false;
        Verdict worst = Verdict.PASS;
        for (SweepResult r : results) {
            List<String> lines = new ArrayList<>(heading);
            if (plan.isMatrix()) {
                lines.add("# combination " + r.requested().label() + " (NCCL_ALGO=" + orAuto(r.requested().algo())
                        + " NCCL_PROTO=" + orAuto(r.requested().proto()) + "); NCCL ran: "
                        + (r.actual().isEmpty() ? "not known" : String.join(", ", r.actual())));
            }
            TableStatus status = TableStatus.of(plan, r.sweep());
            // nccl-tests exits non-zero on a failed data check too; a corrupted run must not look like success.
            anyFailed |= status.failed();
            NcclTestsTableWriter.write(out, r.sweep(), lines, status.trailerWord(), plan.cpuTime() ? "cputime"
                    : "time", extras(r));
            status.notJudged().ifPresent(why -> out.println("# " + why));
            ncclEstimates(r);
            worst = worse(worst, verdict(r.sweep()));
        }
        if (results.size() > 1) {
            fastest(results);
        }
        if (plan.cycles() > 1) {
            results.forEach(this::spread);
        }
        // calibrated as calibrate calibrates (glitches left out; across hosts every multi-domain family and the pick)
        List<GlitchExclusion> inputs = plan.calibrate()
                ? CalibrationPipeline.glitches(calibrationInputs(results, facts), false) : List.of();
        CalibrationReport report = plan.calibrate() ? CalibrationPipeline.calibrate(HardwareFacts.bundled(), inputs,
                CalibrationOptions.defaults(), Optional.empty(), FitProgress.NONE) : null;
        String calibrationText = null;
        if (report != null) {
            StringWriter table = new StringWriter();
            CalibrationTable.write(new PrintWriter(table), report);
            calibrationText = table.toString();
            // The terminal gets the short form; the page keeps the detail.
            CalibrationSummary.write(out, report);
        }
        // The page, the JSON and the CSV files are written together, or none of them; standard output after them
        Outputs outputs = new Outputs();
        if (plan.report() != null) {
            outputs.addAll(SweepReportPage.of(plan, results, inputs, report, calibrationText).files(plan.report()));
        }
        for (int i = 0; i < results.size(); i++) {
            SweepResult r = results.get(i);
            if (plan.json() != null) {
                outputs.add(target(plan.json(), results, i), Outputs.utf8(SweepJson.write(r.sweep(), r.perIteration(),
                        r.rankTimes(), r.ncclEstimates(), context(r, facts, report, i))));
            }
            if (plan.csv() != null) {
                outputs.add(target(plan.csv(), results, i), Outputs.utf8(MeasurementCsv.toString(List.of(r.sweep()))));
            }
        }
        outputs.commit(plan.force());
        if (plan.report() != null) {
            out.println("# page written to " + plan.report().resolve("index.html"));
        }
        out.flush();
        // nccl-tests' own failures exit 1 as nccl-tests does; check's verdict only with --strict
        return anyFailed ? ExitCode.FAIL : ExitCode.of(plan.strict() ? worst : Verdict.PASS, true);
    }

    /**
     * nccl-tests' settings lines and {@code -I} columns for a table measured now, with the values its own checks
     * leave ({@code -z 3} and {@code -I 1} are off under {@code -G}), on a test clock too; a replayed table is the
     * stored run's, whose settings are not this command line's.
     */
    private TableExtras extras(SweepResult r) {
        if (!r.sweep().provenance().kind().ranNow()) {
            return TableExtras.NONE;
        }
        boolean graph = plan.graph() > 0;
        int blocking = plan.blocking() == 3 && graph ? 0 : plan.blocking();
        boolean perIter = plan.perIter() && !graph;
        return new TableExtras(TableExtras.settingLines(blocking, perIter, plan.perIterSkip()),
                perIter && !r.perIteration().isEmpty(), r.perIteration());
    }

    /**
     * The verdict {@code check} gives the table, after it behind {@code # } (nccl-tests' readers skip such lines);
     * a table that cannot be judged says why in one line and counts as WARN.
     */
    private Verdict verdict(Sweep table) {
        CheckReport report;
        try {
            report = SweepVerdict.of(table, plan.interconnect());
        } catch (IllegalArgumentException e) {
            out.println("# Verdict: WARN (not judged: " + e.getMessage() + ")");
            return Verdict.WARN;
        }
        CheckReportWriter.verdict(out, report, "# ");
        return report.verdict();
    }

    private static Verdict worse(Verdict a, Verdict b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** Where combination i goes: standard output (one combination only), or its file of {@link #names}. */
    private static OutputTarget target(OutputTarget base, List<SweepResult> results, int i) {
        return base.file().<OutputTarget>map(f -> new OutputTarget.ToFile(Path.of(names(f, results).get(i))))
                .orElse(base);
    }

    /** The file for combination i: the name itself for one, {@code out.ring-ll.json} for a matrix. */
    static List<String> names(Path base, List<SweepResult> results) {
        List<String> out = new ArrayList<>();
        for (SweepResult r : results) {
            if (results.size() == 1) {
                out.add(base.toString());
                continue;
            }
            String name = base.toString();
            int dot = name.lastIndexOf('.');
            String tag = r.requested().label().replace('/', '-').toLowerCase(Locale.ROOT);
            out.add(dot > name.lastIndexOf('/') ? name.substring(0, dot) + "." + tag + name.substring(dot)
                    : name + "." + tag);
        }
        return out;
    }

    /** The summary of a matrix: per size, each combination's out-of-place time and the fastest. */
    private void fastest(List<SweepResult> results) {
        out.println("# fastest combination per size (out-of-place time in us; '-' = no time at this size)");
        StringBuilder head = new StringBuilder(String.format("# %10s  %8s  %6s", "size", "type", "redop"));
        results.forEach(r -> head.append(String.format("  %12s", r.requested().label())));
        out.println(head.append("  fastest"));
        List<Measurement> first = results.get(0).sweep().rows();
        for (int i = 0; i < first.size(); i++) {
            Measurement m = first.get(i);
            StringBuilder line = new StringBuilder(String.format("  %10d  %8s  %6s", m.sizeBytes(), m.type(), m.redop()));
            String best = null;
            double bestUs = Double.POSITIVE_INFINITY;
            for (SweepResult r : results) {
                Double t = i < r.sweep().rows().size() ? r.sweep().rows().get(i).outOfPlace().timeUs() : null;
                line.append(String.format("  %12s", t == null ? "-" : CFormat.floatStr(t, 7).trim()));
                if (t != null && t < bestUs) {
                    bestUs = t;
                    best = r.requested().label();
                }
            }
            out.println(line.append("  ").append(best == null ? "-" : best));
        }
        out.println("#");
    }

    /** -N: per size (and type, op, root), the out-of-place busbw over the cycles: min, max and spread. */
    private void spread(SweepResult r) {
        Map<String, double[]> byRow = new LinkedHashMap<>();
        Map<String, Measurement> first = new LinkedHashMap<>();
        for (Measurement m : r.sweep().rows()) {
            String key = m.type() + "|" + m.redop() + "|" + m.root() + "|" + m.sizeBytes();
            first.putIfAbsent(key, m);
            Double b = m.outOfPlace().busBwGBps();
            if (b != null) {
                double[] mm = byRow.computeIfAbsent(key, k -> new double[] {Double.POSITIVE_INFINITY, 0});
                mm[0] = Math.min(mm[0], b);
                mm[1] = Math.max(mm[1], b);
            }
        }
        out.println("# run-to-run spread over " + plan.cycles() + " cycles" + (plan.isMatrix() ? " ("
                + r.requested().label() + ")" : "") + ": out-of-place busbw (GB/s)");
        out.printf("# %10s  %8s  %6s  %6s  %8s  %8s  %8s%n", "size", "type", "redop", "root", "min", "max", "spread%");
        byRow.forEach((key, mm) -> {
            Measurement m = first.get(key);
            out.printf(Locale.ROOT, "  %10d  %8s  %6s  %6d  %8s  %8s  %8s%n", m.sizeBytes(), m.type(), m.redop(),
                    m.root(), CFormat.g(mm[0]), CFormat.g(mm[1]), mm[0] > 0
                            ? String.format(Locale.ROOT, "%.1f", 100 * (mm[1] / mm[0] - 1)) : "-");
        });
        out.println("#");
    }

    /**
     * Each table's first datatype/op/root group of the first cycle goes to the calibration: the model is fitted
     * to one sweep of sizes, never to sizes repeated by -N or -d all.
     */
    private static List<CalibrationInput> calibrationInputs(List<SweepResult> results, RunFacts facts) {
        List<CalibrationInput> inputs = new ArrayList<>();
        for (SweepResult r : results) {
            String algo = r.requested().algo() != null ? r.requested().algo() : facts.forcedAlgo();
            inputs.add(new CalibrationInput(SweepReportPage.subject(results, r), firstGroup(r.sweep()), algo,
                    facts.flags()));
        }
        return inputs;
    }

    static Sweep firstGroup(Sweep s) {
        List<Measurement> rows = new ArrayList<>();
        for (Measurement m : s.rows()) {
            Measurement first = s.rows().get(0);
            boolean same = m.type().equals(first.type()) && m.redop().equals(first.redop()) && m.root() == first.root();
            if (!same || (!rows.isEmpty() && m.sizeBytes() <= rows.get(rows.size() - 1).sizeBytes())) {
                break;
            }
            rows.add(m);
        }
        return s.withRows(rows);
    }

    private SweepJson.Context context(SweepResult r, RunFacts facts, CalibrationReport report, int index) {
        ObjectNode h = SweepJson.object();
        h.setAll(facts.harness());
        h.put("command_line", String.join(" ", plan.args()));
        ObjectNode algo = h.putObject("algorithm");
        algo.put("requested_algo", r.requested().algo());
        algo.put("requested_proto", r.requested().proto());
        ArrayNode actual = algo.putArray("actual");
        r.actual().forEach(actual::add);
        ObjectNode versions = h.putObject("versions");
        versions.put("nccl_harness", VersionInfo.projectVersion());
        versions.put("nccl_tests_format", "2.19.6");
        if (facts.ncclVersion() != null) {
            versions.put("nccl", facts.ncclVersion());
        }
        h.put("cycles", plan.cycles());
        if (report != null) {
            h.set("calibration", CalibrationJson.toJson(new CalibrationReport(List.of(report.entries().get(index)))));
        }
        return new SweepJson.Context(facts.startTime(), facts.endTime(), plan.args(), ncclEnvironment(),
                facts.ncclVersion(), TableStatus.of(plan, r.sweep()).jsonOkay(), h, facts.source().toJson().orElse(null));
    }

    /**
     * The environment that shapes an NCCL run (NCCL_*, CUDA_VISIBLE_DEVICES), not all of it: nccl-tests writes
     * every variable, which puts tokens and passwords into a file people share.
     */
    private static List<String> ncclEnvironment() {
        List<String> env = new ArrayList<>();
        new TreeMap<>(System.getenv()).forEach((k, v) -> {
            if (k.startsWith("NCCL_") || k.equals("CUDA_VISIBLE_DEVICES")) {
                env.add(k + "=" + v);
            }
        });
        return env;
    }

    private static String orAuto(String s) {
        return s == null ? "(unset)" : s;
    }
}
