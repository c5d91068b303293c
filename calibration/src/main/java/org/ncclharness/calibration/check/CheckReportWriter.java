package org.ncclharness.calibration.check;

import java.io.PrintWriter;
import java.util.Locale;
import org.ncclharness.calibration.format.CFormat;

/** Renders a {@link CheckReport}: as text for the terminal, as Markdown for the bring-up record (the ticket). */
public final class CheckReportWriter {

    private CheckReportWriter() {
    }

    public static void text(PrintWriter out, CheckReport r) {
        out.println("# check: " + r.run() + " (" + r.provenance().label() + ")");
        if (r.reference() != null) {
            out.println("# " + referenceLine(r.reference()));
            r.reference().notes().forEach(n -> out.println("# " + n));
        }
        if (!r.sizes().isEmpty()) {
            boolean ref = r.reference() != null;
            out.printf(Locale.ROOT, "# %12s  %10s  %10s  %8s  %10s  %10s%n", "size (B)", "busbw", ref ? "reference" : "",
                    ref ? "% of ref" : "", "time (us)", ref ? "ref (us)" : "");
            for (CheckReport.SizeLine s : r.sizes()) {
                out.printf(Locale.ROOT, "  %12d  %10s  %10s  %8s  %10s  %10s%s%n", s.sizeBytes(), num(s.busBwGBps()),
                        num(s.referenceGBps()), s.pctOfReference() == null ? "" : String.format(Locale.ROOT, "%.1f",
                                s.pctOfReference()), num(s.timeUs()), num(s.referenceUs()), marks(s));
            }
        }
        for (Finding f : r.findings()) {
            out.println(f.severity() + ": " + f.message());
        }
        out.println("Verdict: " + r.verdict() + (r.reasons().isEmpty() ? "" : " (" + r.reasons().size()
                + (r.reasons().size() == 1 ? " reason)" : " reasons)")));
        out.flush();
    }

    /**
     * The verdict and its reasons only, each line behind {@code prefix}: what {@code sweep} prints after its table
     * ({@code # }, so that nccl-tests' readers skip them), as {@code check} would judge the table.
     */
    public static void verdict(PrintWriter out, CheckReport r, String prefix) {
        for (Finding f : r.reasons()) {
            out.println(prefix + f.severity() + ": " + f.message());
        }
        out.println(prefix + "Verdict: " + r.verdict() + (r.reasons().isEmpty() ? "" : " (" + r.reasons().size()
                + (r.reasons().size() == 1 ? " reason)" : " reasons)")));
        out.flush();
    }

    /** How the reference is named on the report's first lines: {@code reference (its kind): what it is}. */
    public static String referenceLine(Reference ref) {
        return referenceHead(ref) + ": " + referenceWhat(ref);
    }

    /** The word and the kind: {@code reference (baseline)}, {@code reference (another cluster's run)}, ... */
    public static String referenceHead(Reference ref) {
        return "reference (" + ref.role().noun() + ")";
    }

    private static String referenceWhat(Reference ref) {
        return (ref.predicted() ? "PREDICTION (not a measurement) of " : "") + ref.label();
    }

    private static String marks(CheckReport.SizeLine s) {
        return (s.latencyBound() ? "  latency" : "") + (s.dip() ? "  dip" : "");
    }

    /**
     * The bring-up record: the verdict, the run's context, the findings, the per-size table and the figure.
     *
     * @param figure   the figure's path as the record links it (beside the record: its file name), null for none
     * @param noFigure without a figure: why none was written and how to get one (null: the record says nothing)
     */
    public static String markdown(CheckReport r, RunContext context, String figure, String noFigure) {
        StringBuilder b = new StringBuilder();
        b.append("# Bring-up check: ").append(r.run()).append("\n\n");
        b.append("**Verdict: ").append(r.verdict()).append("**");
        if (!r.reasons().isEmpty()) {
            b.append(" (").append(r.reasons().size()).append(r.reasons().size() == 1 ? " reason)" : " reasons)");
        }
        b.append("\n\n");
        r.reasons().forEach(f -> b.append("- **").append(f.severity()).append("** ").append(f.message()).append('\n'));
        b.append(r.reasons().isEmpty() ? "" : "\n").append("## Run\n\n| | |\n|---|---|\n");
        b.append("| measurements | ").append(cell(r.provenance().label())).append(" (")
                .append(r.provenance().kind().label()).append(") |\n");
        context.facts().forEach(e -> b.append("| ").append(e.getKey()).append(" | ").append(cell(e.getValue()))
                .append(" |\n"));
        if (r.reference() != null) {
            b.append("| ").append(referenceHead(r.reference())).append(" | ").append(cell(referenceWhat(r.reference())))
                    .append(" |\n");
            r.reference().notes().forEach(n -> b.append("| | ").append(cell(n)).append(" |\n"));
        }
        b.append("\n## Findings\n\n");
        for (Finding f : r.findings()) {
            b.append("- **").append(f.severity()).append("** ").append(f.message()).append('\n');
        }
        if (figure != null) {
            b.append("\n## Figure\n\n![busbw per size](").append(figure).append(")\n");
        } else if (noFigure != null) {
            b.append("\n## Figure\n\n").append(noFigure).append('\n');
        }
        if (r.sizes().isEmpty()) {
            return b.toString();
        }
        boolean ref = r.reference() != null;
        b.append("\n## Per size\n\n| size (B) | busbw (GB/s) |");
        b.append(ref ? " reference (GB/s) | % of reference |" : "").append(" time (us) |");
        b.append(ref ? " reference (us) |" : "").append(" judged on | dip |\n|---:|---:|");
        b.append(ref ? "---:|---:|" : "").append("---:|").append(ref ? "---:|" : "").append(":---:|:---:|\n");
        for (CheckReport.SizeLine s : r.sizes()) {
            b.append("| ").append(s.sizeBytes()).append(" | ").append(num(s.busBwGBps())).append(" |");
            if (ref) {
                b.append(' ').append(num(s.referenceGBps())).append(" | ").append(s.pctOfReference() == null ? ""
                        : String.format(Locale.ROOT, "%.1f", s.pctOfReference())).append(" |");
            }
            b.append(' ').append(num(s.timeUs())).append(" |");
            if (ref) {
                b.append(' ').append(num(s.referenceUs())).append(" |");
            }
            String judged = s.latencyBound() ? " time |" : s.pctOfReference() != null ? " busbw |" : "  |";
            b.append(judged).append(s.dip() ? " dip |" : "  |")
                    .append('\n');
        }
        return b.toString();
    }

    /** A Markdown table cell: its pipes escaped, on one line. */
    private static String cell(String s) {
        return s.replace("|", "\\|").replace('\n', ' ');
    }

    private static String num(Double v) {
        return v == null ? "" : CFormat.g(v);
    }
}
