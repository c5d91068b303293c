package org.ncclharness.calibration.check;

import java.io.PrintWriter;
import java.util.Locale;
import org.ncclharness.calibration.io.CFormat;

/** Renders a {@link CheckReport}: as text for the terminal, as Markdown for the bring-up record. */
public final class CheckReportWriter {

    private CheckReportWriter() {
    }

    public static void text(PrintWriter out, CheckReport r) {
        out.println("# check: " + r.run() + " (" + r.provenance().label() + ")");
        if (r.reference() != null) {
            out.println("# reference: " + (r.reference().predicted() ? "PREDICTION of " : "baseline ")
                    + r.reference().label());
        }
        if (!r.sizes().isEmpty()) {
            out.printf("# %12s  %10s  %10s  %8s%n", "size (B)", "busbw", r.reference() == null ? "" : "reference",
                r.reference() == null ? "" : "% of ref");
        for (CheckReport.SizeLine s : r.sizes()) {
            out.printf(Locale.ROOT, "  %12d  %10s  %10s  %8s%s%n", s.sizeBytes(), num(s.busBwGBps()),
                    num(s.referenceGBps()), s.pctOfReference() == null ? "" : String.format(Locale.ROOT, "%.1f",
                            s.pctOfReference()), s.dip() ? "  dip" : "");
        }
        }
        for (Finding f : r.findings()) {
            out.println(f.severity() + ": " + f.message());
        }
        out.println("Verdict: " + r.verdict() + (r.reasons().isEmpty() ? "" : " (" + r.reasons().size()
                + (r.reasons().size() == 1 ? " reason)" : " reasons)")));
        out.flush();
    }

    public static String markdown(CheckReport r) {
        StringBuilder b = new StringBuilder();
        b.append("# Bring-up check: ").append(r.run()).append("\n\n");
        b.append("**Verdict: ").append(r.verdict()).append("**\n\n");
        b.append("- Source: ").append(r.provenance().label()).append(" (").append(r.provenance().kind().label())
                .append(")\n");
        if (r.reference() != null) {
            b.append("- Reference: ").append(r.reference().predicted() ? "prediction (not a measurement) of "
                    : "baseline ").append(r.reference().label()).append('\n');
        }
        b.append("\n## Findings\n\n");
        for (Finding f : r.findings()) {
            b.append("- **").append(f.severity()).append("** ").append(f.message()).append('\n');
        }
        b.append("\n## Per size\n\n| size (B) | busbw (GB/s) |");
        if (r.reference() != null) {
            b.append(" reference (GB/s) | % of reference |");
        }
        b.append(" dip |\n|---:|---:|");
        if (r.reference() != null) {
            b.append("---:|---:|");
        }
        b.append(":---:|\n");
        for (CheckReport.SizeLine s : r.sizes()) {
            b.append("| ").append(s.sizeBytes()).append(" | ").append(num(s.busBwGBps())).append(" |");
            if (r.reference() != null) {
                b.append(' ').append(num(s.referenceGBps())).append(" | ").append(s.pctOfReference() == null ? ""
                        : String.format(Locale.ROOT, "%.1f", s.pctOfReference())).append(" |");
            }
            b.append(s.dip() ? " dip |" : "  |").append('\n');
        }
        return b.toString();
    }

    private static String num(Double v) {
        return v == null ? "" : CFormat.g(v);
    }
}
