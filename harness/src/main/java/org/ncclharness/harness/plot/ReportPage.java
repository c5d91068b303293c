package org.ncclharness.harness.plot;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jfree.chart.JFreeChart;
import org.ncclharness.calibration.io.OutputFile;

/**
 * A results page for {@code --report DIR}: one self-contained {@code index.html} (inline style and script, no
 * fonts, scripts or styles from the network) with the verdicts, the results tables and one figure per dataset,
 * the figures written as PNG files beside it under names derived from their ids. The page opens from disk on a
 * machine with no network. Commands fill it with what they already print; it never computes anything.
 *
 * @param title      page title, e.g. {@code calibrate: 3 datasets}
 * @param provenance one line per input saying where its numbers came from (replays and predictions as such)
 * @param verdicts   health or fit verdicts, shown first
 * @param tables     result tables, in order
 * @param figures    one figure per dataset, in order; ids must be unique
 */
public record ReportPage(String title, List<String> provenance, List<Verdict> verdicts, List<Table> tables,
                         List<ReportFigure> figures) {

    /** How a verdict reads: the words a {@code check} prints, plus NOTE for plain remarks. */
    public enum Level { PASS, WARN, FAIL, NOTE }

    /** One verdict line: {@code FAIL  node-3: busbw 40 % below the reference at 1G}. */
    public record Verdict(Level level, String subject, String text) { }

    /** A results table; cells are shown exactly as given (numbers already formatted by the caller). */
    public record Table(String caption, List<String> header, List<List<String>> rows) {

        public Table {
            header = List.copyOf(header);
            rows = rows.stream().map(List::copyOf).toList();
            for (List<String> row : rows) {
                if (row.size() != header.size()) {
                    throw new IllegalArgumentException("table " + caption + ": a row has " + row.size()
                            + " cells for " + header.size() + " columns");
                }
            }
        }
    }

    /**
     * One figure: its image is written as {@code <file stem>.png} beside the page.
     *
     * @param id      stable name (a dataset id); decides the file name, so it must be unique on the page
     * @param caption text under the image
     * @param figure  what to draw
     */
    public record ReportFigure(String id, String caption, Figure figure) {

        /** File names are the id with anything outside {@code [a-z0-9._-]} replaced, so they are safe anywhere. */
        public String fileName() {
            String stem = id.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
            return (stem.isEmpty() || stem.startsWith(".") ? "figure-" + stem : stem) + ".png";
        }
    }

    /** Figure size on the page; the residual panel gets extra height so the main panel keeps its size. */
    static final int FIGURE_WIDTH_PX = 960;
    static final int FIGURE_HEIGHT_PX = 560;
    static final int FIGURE_WITH_RESIDUALS_HEIGHT_PX = 740;

    public ReportPage {
        provenance = List.copyOf(provenance);
        verdicts = List.copyOf(verdicts);
        tables = List.copyOf(tables);
        figures = List.copyOf(figures);
        Set<String> names = new HashSet<>();
        for (ReportFigure f : figures) {
            if (!names.add(f.fileName())) {
                throw new IllegalArgumentException("two figures would both be written as " + f.fileName());
            }
        }
    }

    /**
     * Writes the images, then {@code index.html} last, so a page never points at an image not yet there. Refuses
     * before writing anything when a file exists and {@code force} is not set.
     *
     * @return the page's path
     */
    public Path write(Path dir, boolean force) {
        Path index = dir.resolve("index.html");
        OutputFile.checkWritable(index, force);
        for (ReportFigure f : figures) {
            OutputFile.checkWritable(dir.resolve(f.fileName()), force);
        }
        for (ReportFigure f : figures) {
            int height = heightOf(f.figure());
            JFreeChart chart = BusBwChart.build(f.figure(), FIGURE_WIDTH_PX);
            OutputFile.write(dir.resolve(f.fileName()), force,
                    out -> ChartFile.writeTo(chart, ChartFile.Format.PNG, FIGURE_WIDTH_PX, height, out));
        }
        byte[] html = ReportHtml.render(this).getBytes(StandardCharsets.UTF_8);
        OutputFile.write(index, force, out -> out.write(html));
        return index;
    }

    static int heightOf(Figure f) {
        return f.residuals() ? FIGURE_WITH_RESIDUALS_HEIGHT_PX : FIGURE_HEIGHT_PX;
    }
}
