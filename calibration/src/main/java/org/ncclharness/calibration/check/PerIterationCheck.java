package org.ncclharness.calibration.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.ncclharness.calibration.format.PerIteration;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.Device;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.measure.Severity;

/**
 * Stragglers and spikes from per-iteration samples (ours, or nccl-tests' own {@code -I 1 -J} JSON): per size
 * and placement the slowest process and its host, iterations slower than a factor × the median, the first
 * iteration against the rest, and the spread between hosts. The questions nccl-tests 2.19's analyser asks.
 *
 * @param spikeFactor  an iteration is a spike when slower than this × the median (default 2)
 * @param stragglerPct a process or host is a straggler when its median exceeds the median over processes or
 *                     hosts by more than this % (default 10)
 */
public record PerIterationCheck(double spikeFactor, double stragglerPct) {

    public static PerIterationCheck defaults() {
        return new PerIterationCheck(2.0, 10.0);
    }

    public CheckReport check(String runName, SweepJson.Read read) {
        if (read.perIteration().isEmpty()) {
            throw new IllegalArgumentException(runName + ": no per-iteration samples (no *_per_iter objects);"
                    + " run the sweep with " + Advice.with(Setting.PER_ITERATION_TIMING, 1) + " and "
                    + Advice.usage(Setting.SWEEP_JSON));
        }
        List<String> hostOfProcess = hostsByProcess(read.sweep().devices());
        List<Finding> out = new ArrayList<>();
        for (PerIteration p : read.perIteration()) {
            Measurement row = read.sweep().rows().get(p.row());
            String where = SizeText.exact(row.sizeBytes()) + " " + p.placement().label();
            iterations(where, row.sizeBytes(), p, out);
            if (p.perProcessMaxTimesUs().size() > 1) {
                processes(where, row.sizeBytes(), p, hostOfProcess, out);
            }
        }
        return new CheckReport(runName, read.sweep().provenance(), null, List.of(), out, Verdict.of(out));
    }

    private void iterations(String where, long size, PerIteration p, List<Finding> out) {
        double[] t = p.timesUs().stream().mapToDouble(Double::doubleValue).toArray();
        if (t.length == 0) {
            return;
        }
        double median = median(t);
        List<String> spikes = new ArrayList<>();
        for (int i = 0; i < t.length; i++) {
            if (t[i] > spikeFactor * median) {
                spikes.add(String.format(Locale.ROOT, "#%d %s us", i, HealthCheck.num(t[i])));
            }
        }
        out.add(new Finding(Severity.INFO, "iterations", size, String.format(Locale.ROOT,
                "%s: %d iterations, median %s us, min %s us, max %s us", where, t.length, HealthCheck.num(median),
                HealthCheck.num(p.minUs()), HealthCheck.num(p.maxUs()))));
        if (!spikes.isEmpty()) {
            out.add(new Finding(Severity.WARN, "spike", size, String.format(Locale.ROOT,
                    "%s: %d of %d iterations slower than %s x the median %s us: %s", where, spikes.size(), t.length,
                    HealthCheck.num(spikeFactor), HealthCheck.num(median), String.join(", ", spikes))));
        }
        if (t.length > 2) {
            double[] rest = java.util.Arrays.copyOfRange(t, 1, t.length);
            double ratio = t[0] / median(rest);
            out.add(new Finding(ratio > spikeFactor ? Severity.WARN : Severity.INFO, "first-iteration", size,
                    String.format(Locale.ROOT, "%s: first iteration %s us = %.2f x the median of the rest",
                            where, HealthCheck.num(t[0]), ratio)));
        }
    }

    private void processes(String where, long size, PerIteration p, List<String> hostOfProcess, List<Finding> out) {
        int n = p.perProcessMaxTimesUs().size();
        double[] medians = new double[n];
        for (int i = 0; i < n; i++) {
            medians[i] = median(p.perProcessMaxTimesUs().get(i).stream().mapToDouble(Double::doubleValue).toArray());
        }
        double overall = median(medians);
        int slowest = 0;
        for (int i = 1; i < n; i++) {
            if (medians[i] > medians[slowest]) {
                slowest = i;
            }
        }
        double excess = 100 * (medians[slowest] / overall - 1);
        String host = slowest < hostOfProcess.size() ? hostOfProcess.get(slowest) : "host unknown";
        out.add(new Finding(excess > stragglerPct ? Severity.WARN : Severity.INFO, "slowest-process", size,
                String.format(Locale.ROOT, "%s: slowest process %d on %s, median %s us, %.1f %% above the median"
                        + " over %d processes (%s us)", where, slowest, host, HealthCheck.num(medians[slowest]),
                        excess, n, HealthCheck.num(overall))));
        Map<String, List<Double>> byHost = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String h = i < hostOfProcess.size() ? hostOfProcess.get(i) : "host unknown";
            byHost.computeIfAbsent(h, k -> new ArrayList<>()).add(medians[i]);
        }
        if (byHost.size() > 1) {
            String fastHost = null;
            String slowHost = null;
            double fast = Double.POSITIVE_INFINITY;
            double slow = 0;
            for (Map.Entry<String, List<Double>> e : byHost.entrySet()) {
                double m = median(e.getValue().stream().mapToDouble(Double::doubleValue).toArray());
                if (m < fast) {
                    fast = m;
                    fastHost = e.getKey();
                }
                if (m > slow) {
                    slow = m;
                    slowHost = e.getKey();
                }
            }
            double spread = 100 * (slow / fast - 1);
            out.add(new Finding(spread > stragglerPct ? Severity.WARN : Severity.INFO, "host-spread", size,
                    String.format(Locale.ROOT, "%s: per-host spread %.1f %% (slowest %s %s us, fastest %s %s us)",
                            where, spread, slowHost, HealthCheck.num(slow), fastHost, HealthCheck.num(fast))));
        }
    }

    /** Process index → host: processes in the order their first device appears (one pid per process). */
    static List<String> hostsByProcess(List<Device> devices) {
        Map<Long, String> byPid = new LinkedHashMap<>();
        for (Device d : devices) {
            byPid.putIfAbsent(d.pid(), d.host());
        }
        return new ArrayList<>(byPid.values());
    }

    private static double median(double[] v) {
        return new Median().evaluate(v);
    }
}
