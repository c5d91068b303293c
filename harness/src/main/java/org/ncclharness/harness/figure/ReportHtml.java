package org.ncclharness.harness.figure;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.ncclharness.harness.options.VersionInfo;

/**
 * The HTML of a {@link ReportPage}: one file, styles and script inline, nothing fetched. A Content-Security-Policy
 * says so to the browser too: no source may be loaded but the page's own images, so a reference to the network
 * that slipped in would be refused rather than fetched.
 */
final class ReportHtml {
    /** Cells that read as numbers are right-aligned so columns of figures line up. */
    private static final Pattern NUMBER = Pattern.compile("[-+]?[0-9][0-9,]*(\\.[0-9]+)?\\s*[%a-zA-Zµ/]*");

    private static final int FOLD_PROVENANCE_AFTER = 4;

    /**
     * Nothing by default; images from the page's own origin (its folder, opened from disk or served); the inline
     * style and script of this page.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; img-src 'self'; "
            + "style-src 'unsafe-inline'; script-src 'unsafe-inline'";

    /** A text cell this long gets room to wrap in a few lines rather than in a column one word wide. */
    private static final int LONG_CELL_CHARS = 32;

    private static final String STYLE = """
            body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; margin: 1.5em auto;
                   max-width: 1400px; padding: 0 1em; color: #222; }
            h1 { font-size: 1.5em; margin-bottom: .2em; }
            h2 { font-size: 1.15em; border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 1.6em; }
            .provenance { color: #555; font-size: .9em; margin: .1em 0; }
            ul.verdicts { list-style: none; padding: 0; }
            ul.verdicts li { margin: .3em 0; }
            .level { display: inline-block; min-width: 3.6em; text-align: center; font-weight: bold;
                     border-radius: 3px; padding: 0 .3em; margin-right: .5em; color: #fff; }
            .pass .level { background: #2a7d2a; } .warn .level { background: #b8860b; }
            .fail .level { background: #b22222; } .note .level { background: #666; }
            table { border-collapse: collapse; margin: .5em 0 1em; font-size: .85em; }
            caption { text-align: left; font-weight: bold; padding: .3em 0; }
            th, td { border: 1px solid #ccc; padding: .25em .5em; vertical-align: top; }
            th { background: #f2f2f2; text-align: left; }
            table.sortable th { cursor: pointer; user-select: none; }
            table.sortable th[aria-sort=ascending]::after { content: " \\25B2"; }
            table.sortable th[aria-sort=descending]::after { content: " \\25BC"; }
            tbody tr:nth-child(even) { background: #fafafa; }
            h3 { font-size: 1.05em; margin: 1.6em 0 .2em; }
            section.run { border-top: 1px solid #eee; }
            details.notes { margin: .3em 0; }
            details.notes summary, details.text summary { cursor: pointer; }
            details.notes ul { margin: .3em 0 .6em; font-size: .9em; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            td.long { min-width: 16em; }
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
    /**
     * Then each sortable table: a click on a header (or Enter on it) sorts the rows by that column, ascending, then
     * descending; numbers as numbers, the rest as text, cells with no value ('-', 'n/a', empty) last either way.
     */
    private static final String SCRIPT = """
            document.querySelectorAll('img').forEach(function (img) {
              if (img.complete) { img.dataset.loaded = img.naturalWidth > 0 ? 'true' : 'false'; }
            });
            function sortKey(cell) {
              var t = cell.textContent.trim();
              if (t === '' || t === '-' || t === 'n/a') { return { blank: true, v: '' }; }
              var n = cell.classList.contains('num') ? parseFloat(t.replace(/,/g, '')) : NaN;
              return { blank: false, v: isNaN(n) ? t : n };
            }
            document.querySelectorAll('table.sortable').forEach(function (table) {
              var headers = table.querySelectorAll('thead th');
              headers.forEach(function (th, col) {
                function sort() {
                  var ascending = th.getAttribute('aria-sort') !== 'ascending';
                  headers.forEach(function (o) { o.removeAttribute('aria-sort'); });
                  th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
                  var body = table.tBodies[0];
                  var rows = Array.prototype.slice.call(body.rows);
                  rows.sort(function (a, b) {
                    var x = sortKey(a.cells[col]), y = sortKey(b.cells[col]);
                    if (x.blank !== y.blank) { return x.blank ? 1 : -1; }
                    var c = typeof x.v === 'number' && typeof y.v === 'number' ? x.v - y.v
                        : String(x.v).localeCompare(String(y.v));
                    return ascending ? c : -c;
                  });
                  rows.forEach(function (r) { body.appendChild(r); });
                }
                th.tabIndex = 0;
                th.title = 'sort by this column';
                th.addEventListener('click', sort);
                th.addEventListener('keydown', function (e) {
                  if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); }
                });
              });
            });
            """;

    private ReportHtml() {
    }

    static String render(ReportPage page) {
        StringBuilder h = new StringBuilder(4096);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CONTENT_SECURITY_POLICY)
                .append("\">\n")
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
            if (t.folded()) {
                h.append("<section class=\"text\">\n<details class=\"text\"><summary>").append(esc(t.caption()))
                        .append("</summary>\n<pre>").append(esc(t.body())).append("</pre>\n</details>\n</section>\n");
            } else {
                h.append("<section class=\"text\">\n<h2>").append(esc(t.caption())).append("</h2>\n<pre>")
                        .append(esc(t.body())).append("</pre>\n</section>\n");
            }
        }
        List<String> names = page.fileNames();
        if (!page.figures().isEmpty()) {
            h.append("<section id=\"figures\">\n<h2>Figures</h2>\n");
            for (int i = 0; i < page.figures().size(); i++) {
                figure(h, page.figures().get(i), names.get(i));
            }
            h.append("</section>\n");
        }
        if (!page.runs().isEmpty()) {
            h.append("<section id=\"runs\">\n<h2>Runs</h2>\n");
            int next = page.figures().size();
            for (ReportPage.Run run : page.runs()) {
                h.append("<section class=\"run\" id=\"").append(esc(runAnchor(run.id()))).append("\">\n<h3>")
                        .append(esc(run.id())).append("</h3>\n<p class=\"provenance\">").append(esc(run.provenance()))
                        .append("</p>\n");
                for (ReportPage.ReportFigure f : run.figures()) {
                    figure(h, f, names.get(next++));
                }
                run.tables().forEach(t -> table(h, t));
                for (ReportPage.NoteGroup g : run.notes()) {
                    h.append("<details class=\"notes\"><summary>").append(esc(g.heading())).append(" (")
                            .append(g.lines().size()).append(")</summary>\n<ul>\n");
                    g.lines().forEach(l -> h.append("<li>").append(esc(l)).append("</li>\n"));
                    h.append("</ul>\n</details>\n");
                }
                h.append("</section>\n");
            }
            h.append("</section>\n");
        }
        h.append("<footer>Written by nccl-harness ").append(esc(VersionInfo.projectVersion()))
                .append(". Predictions and replays are labelled as such; nothing on this page was fetched from the"
                        + " network.</footer>\n")
                .append("<script>\n").append(SCRIPT).append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void figure(StringBuilder h, ReportPage.ReportFigure f, String name) {
        h.append("<figure id=\"").append(esc(name.replaceAll("\\.png$", ""))).append("\">\n")
                .append("<img src=\"").append(esc(name)).append("\" width=\"")
                .append(ReportPage.FIGURE_WIDTH_PX).append("\" height=\"")
                .append(f.figure().heightPx()).append("\" alt=\"").append(esc(f.figure().title()))
                .append("\" onload=\"").append(ONLOAD).append("\" onerror=\"this.dataset.loaded = 'false'\">\n")
                .append("<figcaption>").append(esc(f.caption())).append("</figcaption>\n</figure>\n");
    }

    /** The anchor of a run's section, {@code run-<id>} with the id's unsafe characters replaced. */
    static String runAnchor(String id) {
        return "run-" + id.replaceAll("[^A-Za-z0-9._-]", "-");
    }

    private static void table(StringBuilder h, ReportPage.Table t) {
        h.append("<div class=\"scroll\"><table class=\"sortable\">\n<caption>").append(esc(t.caption())).append("</caption>\n<thead><tr>");
        t.header().forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
        h.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : t.rows()) {
            h.append("<tr>");
            for (String cell : row) {
                h.append(NUMBER.matcher(cell.trim()).matches() ? "<td class=\"num\">"
                        : cell.length() >= LONG_CELL_CHARS && cell.contains(" ") ? "<td class=\"long\">" : "<td>")
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
