package org.ncclharness.harness.figure;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.ncclharness.harness.options.VersionInfo;

/** The HTML of a {@link ReportPage}: one file, styles and script inline, nothing fetched. */
final class ReportHtml {
    /** Cells that read as numbers are right-aligned so columns of figures line up. */
    private static final Pattern NUMBER = Pattern.compile("[-+]?[0-9][0-9,]*(\\.[0-9]+)?\\s*[%a-zA-Zµ/]*");

    private static final int FOLD_PROVENANCE_AFTER = 4;

    private static final String STYLE = """
            body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; margin: 1.5em auto;
                   max-width: 1000px; padding: 0 1em; color: #222; }
            h1 { font-size: 1.5em; margin-bottom: .2em; }
            h2 { font-size: 1.15em; border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 1.6em; }
            .provenance { color: #555; font-size: .9em; margin: .1em 0; }
            ul.verdicts { list-style: none; padding: 0; }
            ul.verdicts li { margin: .3em 0; }
            .level { display: inline-block; min-width: 3.6em; text-align: center; font-weight: bold;
                     border-radius: 3px; padding: 0 .3em; margin-right: .5em; color: #fff; }
            .pass .level { background: #2a7d2a; } .warn .level { background: #b8860b; }
            .fail .level { background: #b22222; } .note .level { background: #666; }
            table { border-collapse: collapse; margin: .5em 0 1em; font-size: .9em; }
            caption { text-align: left; font-weight: bold; padding: .3em 0; }
            th, td { border: 1px solid #ccc; padding: .25em .6em; }
            th { background: #f2f2f2; text-align: left; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            figure { margin: 1em 0 2em; }
            figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
            figcaption { color: #444; font-size: .9em; margin-top: .3em; }
            .scroll { overflow-x: auto; }
            details.provenance summary { cursor: pointer; color: #555; font-size: .9em; }
            pre { font-size: .75em; overflow-x: auto; background: #f7f7f7; padding: .6em; }
            footer { color: #888; font-size: .8em; margin-top: 3em; }
            """;

    /**
     * Marks each image once it has really decoded (naturalWidth > 0), so a browser test, or a person with the
     * inspector open, can tell a loaded figure from a broken one. The script at the end catches images that
     * finished before their handler could run.
     */
    private static final String ONLOAD = "this.dataset.loaded = this.naturalWidth > 0 ? 'true' : 'false'";
    private static final String SCRIPT = """
            document.querySelectorAll('img').forEach(function (img) {
              if (img.complete) { img.dataset.loaded = img.naturalWidth > 0 ? 'true' : 'false'; }
            });
            """;

    private ReportHtml() {
    }

    static String render(ReportPage page) {
        StringBuilder h = new StringBuilder(4096);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(page.title())).append("</title>\n")
                .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n")
                .append("<h1>").append(esc(page.title())).append("</h1>\n");
        // A long list of sources would push the verdicts off the first screen: fold it past a few lines.
        boolean fold = page.provenance().size() > FOLD_PROVENANCE_AFTER;
        if (fold) {
            h.append("<details class=\"provenance\"><summary>Where the numbers come from (")
                    .append(page.provenance().size()).append(" sources)</summary>\n");
        }
        for (String line : page.provenance()) {
            h.append("<p class=\"provenance\">").append(esc(line)).append("</p>\n");
        }
        if (fold) {
            h.append("</details>\n");
        }
        if (!page.verdicts().isEmpty()) {
            h.append("<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<ul class=\"verdicts\">\n");
            for (ReportPage.Verdict v : page.verdicts()) {
                String level = v.level().name();
                h.append("<li class=\"").append(level.toLowerCase(Locale.ROOT)).append("\"><span class=\"level\">")
                        .append(level).append("</span><b>").append(esc(v.subject())).append("</b>: ")
                        .append(esc(v.text())).append("</li>\n");
            }
            h.append("</ul>\n</section>\n");
        }
        if (!page.tables().isEmpty()) {
            h.append("<section id=\"results\">\n<h2>Results</h2>\n");
            page.tables().forEach(t -> table(h, t));
            h.append("</section>\n");
        }
        for (ReportPage.Text t : page.texts()) {
            h.append("<section class=\"text\">\n<h2>").append(esc(t.caption())).append("</h2>\n<pre>")
                    .append(esc(t.body())).append("</pre>\n</section>\n");
        }
        if (!page.figures().isEmpty()) {
            h.append("<section id=\"figures\">\n<h2>Figures</h2>\n");
            List<String> names = page.fileNames();
            for (int i = 0; i < names.size(); i++) {
                ReportPage.ReportFigure f = page.figures().get(i);
                h.append("<figure id=\"").append(esc(names.get(i).replaceAll("\\.png$", ""))).append("\">\n")
                        .append("<img src=\"").append(esc(names.get(i))).append("\" width=\"")
                        .append(ReportPage.FIGURE_WIDTH_PX).append("\" height=\"")
                        .append(f.figure().heightPx()).append("\" alt=\"").append(esc(f.figure().title()))
                        .append("\" onload=\"").append(ONLOAD).append("\" onerror=\"this.dataset.loaded = 'false'\">\n")
                        .append("<figcaption>").append(esc(f.caption())).append("</figcaption>\n</figure>\n");
            }
            h.append("</section>\n");
        }
        h.append("<footer>Written by nccl-harness ").append(esc(VersionInfo.projectVersion()))
                .append(". Predictions and replays are labelled as such; nothing on this page was fetched from the"
                        + " network.</footer>\n")
                .append("<script>\n").append(SCRIPT).append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void table(StringBuilder h, ReportPage.Table t) {
        h.append("<div class=\"scroll\"><table>\n<caption>").append(esc(t.caption())).append("</caption>\n<thead><tr>");
        t.header().forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
        h.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : t.rows()) {
            h.append("<tr>");
            for (String cell : row) {
                h.append(NUMBER.matcher(cell.trim()).matches() ? "<td class=\"num\">" : "<td>")
                        .append(esc(cell)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table></div>\n");
    }

    /** HTML text and attribute escaping: the five characters that can end a text run or an attribute. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
