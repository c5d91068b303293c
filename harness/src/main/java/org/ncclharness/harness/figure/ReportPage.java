package org.ncclharness.harness.figure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.OutputException;
import org.ncclharness.calibration.format.OutputFile;

/**
 * A results page for {@code --report DIR}: one self-contained {@code index.html} (inline style and script, no
 * fonts, scripts or styles from the network, and a Content-Security-Policy that forbids them) with the verdicts,
 * the results tables (sortable by a click on a header) and one figure per dataset or one section per run, the
 * figures written as PNG files beside it under names derived from their ids. The page opens from disk on a
 * machine with no network. Commands fill it with what they already print; it never computes anything.
 *
 * @param title      page title, e.g. {@code calibrate: 3 datasets}
 * @param provenance one line per input saying where its numbers came from (replays and predictions as such)
 * @param verdicts   health or fit verdicts, shown first
 * @param tables     result tables, in order
 * @param texts      preformatted blocks (a command's text table exactly as it printed it), in order
 * @param figures    one figure per dataset, in order
 * @param runs       one section per input, after the figures: its own figures, tables and notes
 */
public record ReportPage(String title, List<String> provenance, List<Verdict> verdicts, List<Table> tables,
                         List<Text> texts, List<ReportFigure> figures, List<Run> runs) {

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
     * A block shown exactly as given, in a fixed-width font.
     *
     * @param folded shown collapsed under its caption: the same facts are on the page in another form
     */
    public record Text(String caption, String body, boolean folded) {

        public Text(String caption, String body) {
            this(caption, body, false);
        }
    }

    /**
     * One input's section: the views of it (each a figure, in order: adding a view is one more entry), the tables
     * that belong to it alone, and its notes by kind, each kind collapsed until opened.
     *
     * @param id         the input's id, the section's heading
     * @param provenance where its numbers came from
     */
    public record Run(String id, String provenance, List<ReportFigure> figures, List<Table> tables,
                      List<NoteGroup> notes) {

        public Run {
            figures = List.copyOf(figures);
            tables = List.copyOf(tables);
            notes = List.copyOf(notes);
        }
    }

    /** Notes of one kind, under a heading that names the kind; shown folded. */
    public record NoteGroup(String heading, List<String> lines) {

        public NoteGroup {
            lines = List.copyOf(lines);
        }
    }

    /**
     * One figure: its image is written beside the page under a name made from the id ({@link #fileNames}).
     *
     * @param id      stable name: a dataset id, or the input file as the user named it
     * @param caption text under the image
     * @param figure  what to draw
     */
    public record ReportFigure(String id, String caption, Picture figure) {

        /**
         * A run's figure in each view a page shows ({@link FigureView#BOTH}): the busbw view under the id, each
         * other under the id and the view's name ({@code run-time}), its caption saying which view it is.
         */
        public static List<ReportFigure> views(String id, String caption, Figure figure) {
            List<ReportFigure> out = new ArrayList<>();
            for (FigureView v : FigureView.BOTH) {
                out.add(v == FigureView.BUSBW ? new ReportFigure(id, caption, figure.withView(v))
                        : new ReportFigure(id + "-" + v.id(), caption + " The same run as " + v.quantity()
                                + " against size, both axes log: the latency view.", figure.withView(v)));
            }
            return out;
        }

        /**
         * The id's last path component with anything outside {@code [A-Za-z0-9._-]} replaced, so the name is safe
         * on any file system and a dataset's figure is simply {@code <id>.png}.
         */
        String stem() {
            String last = id.substring(Math.max(id.lastIndexOf('/'), id.lastIndexOf('\\')) + 1);
            String stem = last.replaceAll("[^A-Za-z0-9._-]", "-");
            return stem.isEmpty() || stem.startsWith(".") ? "figure-" + stem : stem;
        }
    }

    /** Figure size on the page ({@link Figure#heightPx}: the residual panel gets extra height). */
    static final int FIGURE_WIDTH_PX = 960;
    static final int FIGURE_HEIGHT_PX = 560;
    static final int FIGURE_WITH_RESIDUALS_HEIGHT_PX = 740;

    public ReportPage {
        provenance = List.copyOf(provenance);
        verdicts = List.copyOf(verdicts);
        tables = List.copyOf(tables);
        texts = List.copyOf(texts);
        figures = List.copyOf(figures);
        runs = List.copyOf(runs);
    }

    /** A page of figures alone, with no run sections. */
    public ReportPage(String title, List<String> provenance, List<Verdict> verdicts, List<Table> tables,
                      List<Text> texts, List<ReportFigure> figures) {
        this(title, provenance, verdicts, tables, texts, figures, List.of());
    }

    /** Every figure the page shows, in page order: its own, then each run's. */
    public List<ReportFigure> allFigures() {
        List<ReportFigure> all = new ArrayList<>(figures);
        runs.forEach(r -> all.addAll(r.figures()));
        return all;
    }

    /**
     * The image file of each of {@link #allFigures}, in order: {@code <stem>.png}, and {@code <stem>-2.png}, {@code -3} ... for a
     * later figure whose stem is taken (compared ignoring case, for the file systems where those are one file).
     * The same page always gives the same names.
     */
    public List<String> fileNames() {
        Set<String> taken = new HashSet<>();
        List<String> names = new ArrayList<>();
        for (ReportFigure f : allFigures()) {
            String name = f.stem() + ".png";
            for (int k = 2; !taken.add(name.toLowerCase(Locale.ROOT)); k++) {
                name = f.stem() + "-" + k + ".png";
            }
            names.add(name);
        }
        return names;
    }

    /**
     * Refuses early, before any work, a --report DIR whose page would be refused at the end: DIR is a file, or
     * its index.html exists without --force, or DIR is not there and could not be made there. {@link #files}
     * makes it.
     */
    public static void checkWritable(Path dir, boolean force) {
        checkWritable(dir, force, "--report");
    }

    /** As {@link #checkWritable(Path, boolean)}, naming the command's own flag for DIR in its messages. */
    public static void checkWritable(Path dir, boolean force, String flag) {
        if (dir.getFileName() != null && dir.getFileName().toString().matches(".*\\.(json|csv|md|txt|html|png|svg)")) {
            throw new InputException(dir.toString(), 0, flag + " names a directory (the page is DIR/index.html), "
                    + "and this looks like a file name; give a directory (" + flag.replaceAll("/.*", "") + " out/),"
                    + " or see --help for the command's one-file outputs");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new InputException(dir.toString(), 0, "exists and is not a directory; " + flag + " names the "
                    + "directory the page is written to");
        }
        if (Files.isDirectory(dir)) {
            OutputFile.checkWritable(dir.resolve("index.html"), force);
        } else {
            OutputFile.checkFolderWritable(dir);
        }
    }

    /**
     * The page's files in DIR, the images first and {@code index.html} last, for {@link OutputFile#writeAll}
     * with the command's other outputs: all of them are written, or none. DIR, which --report names, is made
     * when missing.
     */
    public Map<Path, OutputFile.Content> files(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new OutputException("cannot create " + dir + ": " + OutputFile.reason(e), e);
        }
        Map<Path, OutputFile.Content> out = new LinkedHashMap<>();
        List<String> names = fileNames();
        List<ReportFigure> all = allFigures();
        PngCanvas canvas = new PngCanvas();
        for (int i = 0; i < all.size(); i++) {
            out.put(dir.resolve(names.get(i)), png(all.get(i).figure(), canvas));
        }
        byte[] html = ReportHtml.render(this).getBytes(StandardCharsets.UTF_8);
        out.put(dir.resolve("index.html"), o -> o.write(html));
        return out;
    }

    /**
     * One picture as a PNG file, drawn as the page draws it (a Markdown record embeds the same picture). The chart is
     * built when the file is written, so a page of a hundred figures holds one chart at a time, not all of them
     * (the speed targets: {@code calibrate --report} within 600 MB, README).
     */
    public static OutputFile.Content png(Picture f) {
        return png(f, new PngCanvas());
    }

    /** {@link #png(Picture)} drawn on {@code canvas}: a page's files share one, written one after another. */
    private static OutputFile.Content png(Picture f, PngCanvas canvas) {
        int height = f.heightPx();
        return o -> canvas.write(f.chart(FIGURE_WIDTH_PX), FIGURE_WIDTH_PX, height, o);
    }

    /** The page alone, all its files or none; returns the path of {@code index.html}. */
    public Path write(Path dir, boolean force) {
        OutputFile.writeAll(files(dir), force);
        return dir.resolve("index.html");
    }

}
