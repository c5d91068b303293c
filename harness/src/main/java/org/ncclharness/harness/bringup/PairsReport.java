package org.ncclharness.harness.bringup;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ncclharness.calibration.format.CFormat;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.harness.figure.HostHeatmap;
import org.ncclharness.harness.figure.ReportPage;

/**
 * {@code bringup --pairs} as reported: every group measured with its busbw and its round's reference, the hosts
 * named slow and why, as text, CSV and a page with the heatmap.
 *
 * @param sizeBytes the size whose busbw each group is judged by (the sweep's largest)
 */
record PairsReport(String source, PairResult result, List<String> hosts, long sizeBytes) {

    PairsReport {
        hosts = List.copyOf(hosts);
    }

    boolean failed() {
        return !result.slowHosts().isEmpty();
    }

    String text() {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        out.println("# nccl-harness bringup --pairs: " + source);
        out.println("# " + result.method() + " over " + hosts.size() + " hosts in " + result.rounds() + " rounds;"
                + " busbw at " + SizeText.exact(sizeBytes) + ", the fastest of each group's runs");
        out.printf(Locale.ROOT, "%-40s %12s %12s %6s%n", "hosts", "busbw GB/s", "ref GB/s", "slow");
        for (PairResult.Group g : result.measured()) {
            out.printf(Locale.ROOT, "%-40s %12s %12s %6s%n", names(g), CFormat.g(g.busBwGBps()),
                    CFormat.g(g.referenceGBps()), g.slow() ? "slow" : "");
        }
        result.reasons().forEach(r -> out.println("  " + (failed() ? "FAIL" : "WARN") + "  " + r));
        out.println(failed() ? "Verdict: FAIL: slow host" + (result.slowHosts().size() == 1 ? "" : "s") + " "
                + String.join(", ", result.slowHosts().stream().map(hosts::get).toList())
                : "Verdict: " + (result.reasons().isEmpty() ? "PASS: no slow host" : "WARN: no host slow on all its"
                + " pairs"));
        out.flush();
        return s.toString();
    }

    private String names(PairResult.Group g) {
        return String.join(" ", g.hosts().stream().map(hosts::get).toList());
    }

    String csv() {
        StringBuilder b = new StringBuilder("hosts,size_bytes,busbw_gbps,reference_gbps,slow\n");
        for (PairResult.Group g : result.measured()) {
            b.append(names(g)).append(',').append(sizeBytes).append(',').append(g.busBwGBps()).append(',')
                    .append(Double.isNaN(g.referenceGBps()) ? "" : Double.toString(g.referenceGBps())).append(',')
                    .append(g.slow()).append('\n');
        }
        return b.toString();
    }

    HostHeatmap heatmap() {
        return new HostHeatmap("Pair busbw at " + SizeText.exact(sizeBytes), source, hosts, result.pairMatrix());
    }

    ReportPage page() {
        List<ReportPage.Verdict> verdicts = new ArrayList<>();
        verdicts.add(new ReportPage.Verdict(failed() ? ReportPage.Level.FAIL : result.reasons().isEmpty()
                ? ReportPage.Level.PASS : ReportPage.Level.WARN, "pairs", result.method() + ", " + result.rounds()
                + " rounds, " + hosts.size() + " hosts"));
        result.reasons().forEach(r -> verdicts.add(new ReportPage.Verdict(failed() ? ReportPage.Level.FAIL
                : ReportPage.Level.WARN, "pairs", r)));
        List<List<String>> rows = result.measured().stream().map(g -> List.of(names(g), CFormat.g(g.busBwGBps()),
                CFormat.g(g.referenceGBps()), g.slow() ? "slow" : "")).toList();
        return new ReportPage("bringup --pairs: " + (failed() ? "FAIL" : "PASS"), List.of(source), verdicts,
                List.of(new ReportPage.Table("Groups measured", List.of("hosts", "busbw (GB/s)", "reference (GB/s)",
                        "slow"), rows)), List.of(new ReportPage.Text("The report bringup --pairs printed", text())),
                List.of(new ReportPage.ReportFigure("pairs", "pair busbw; a slow host is a dark row and column",
                        heatmap())));
    }
}
