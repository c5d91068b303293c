package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.measure.InputException;

class ReportPageTest {

    @TempDir
    Path dir;

    @Test
    void writesThePageAndOneImagePerFigureUnderNamesFromTheIds() throws Exception {
        Path index = ReportPages.twoDatasets().write(dir, false);

        assertThat(index).isEqualTo(dir.resolve("index.html"));
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactly(
                    "h100_allreduce_16gpu_2node_synthetic.png", "h100_allreduce_8gpu_synthetic.png", "index.html");
        }
        BufferedImage plain = Images.readPng(dir.resolve("h100_allreduce_8gpu_synthetic.png"));
        assertThat(plain.getWidth()).isEqualTo(ReportPage.FIGURE_WIDTH_PX);
        assertThat(plain.getHeight()).isEqualTo(ReportPage.FIGURE_HEIGHT_PX);
        BufferedImage withResiduals = Images.readPng(dir.resolve("h100_allreduce_16gpu_2node_synthetic.png"));
        assertThat(withResiduals.getHeight()).isEqualTo(ReportPage.FIGURE_WITH_RESIDUALS_HEIGHT_PX);
        String html = Files.readString(index);
        assertThat(html).contains("<img src=\"h100_allreduce_8gpu_synthetic.png\" width=\"960\" height=\"560\"")
                .contains("<td class=\"num\">350.0</td>").contains("<span class=\"level\">WARN</span>");
    }

    @Test
    void thePageFetchesNothing() throws Exception {
        String html = Files.readString(ReportPages.twoDatasets().write(dir, false));

        Matcher refs = Pattern.compile("(?:src|href)\\s*=\\s*\"([^\"]*)\"").matcher(html);
        int images = 0;
        while (refs.find()) {
            assertThat(refs.group(1)).as("a reference on the page").doesNotContain(":").doesNotStartWith("/");
            images++;
        }
        assertThat(images).isEqualTo(2);
        assertThat(html).doesNotContain("<link").doesNotContain("@import").doesNotContain("url(")
                .doesNotContain("@font-face");
    }

    @Test
    void escapesEverythingItIsGiven() throws Exception {
        ReportPage p = ReportPages.twoDatasets();
        String html = ReportHtml.render(p);

        assertThat(html).contains("β_phys &lt;IB NDR&gt;").doesNotContain("<IB NDR>")
                .contains("<pre># dataset  N\nh100 &lt;8&gt;  8\n</pre>");
        assertThat(ReportHtml.esc("a\"b'c&<>")).isEqualTo("a&quot;b&#39;c&amp;&lt;&gt;");
    }

    @Test
    void refusesToOverwriteWithoutForceAndWritesNothingThen() throws Exception {
        Files.writeString(dir.resolve("index.html"), "mine");

        assertThatThrownBy(() -> ReportPages.twoDatasets().write(dir, false))
                .isInstanceOf(InputException.class).hasMessageContaining("--force");
        try (var files = Files.list(dir)) {
            assertThat(files).hasSize(1);
        }
        assertThat(Files.readString(dir.resolve("index.html"))).isEqualTo("mine");

        ReportPages.twoDatasets().write(dir, true);
        assertThat(Files.readString(dir.resolve("index.html"))).startsWith("<!DOCTYPE html>");
    }

    @Test
    void figuresWhoseNamesWouldCollideGetNumberedNamesInOrder() {
        ReportPage p = ReportPages.twoDatasets();
        var f = p.figures().get(0);
        var page = new ReportPage("t", List.of(), List.of(), List.of(), List.of(), List.of(f,
                new ReportPage.ReportFigure(f.id().toUpperCase(), "again", f.figure()),
                new ReportPage.ReportFigure("runs/a/run.txt", "a", f.figure()),
                new ReportPage.ReportFigure("runs/b/run.txt", "b", f.figure()),
                new ReportPage.ReportFigure("../.hidden", "c", f.figure())));

        assertThat(page.fileNames()).containsExactly("h100_allreduce_8gpu_synthetic.png",
                "H100_ALLREDUCE_8GPU_SYNTHETIC-2.png", "run.txt.png", "run.txt-2.png", "figure-.hidden.png");
    }

    @Test
    void runSectionsShowTheirViewsTablesAndFoldedNotesAndTheirImagesAreWrittenAfterThePagesOwn() throws Exception {
        ReportPage two = ReportPages.twoDatasets();
        ReportPage.ReportFigure busBw = two.figures().get(1);
        ReportPage.ReportFigure time = new ReportPage.ReportFigure(busBw.id() + "-time", "time", busBw.figure());
        ReportPage.Run run = new ReportPage.Run(busBw.id(), "replayed <here>", List.of(busBw, time),
                two.tables(), List.of(new ReportPage.NoteGroup("Models not fitted", List.of("A: no profile"))));
        ReportPage page = new ReportPage("t", List.of(), List.of(), List.of(),
                List.of(new ReportPage.Text("as text", "# a <b>", true)), List.of(two.figures().get(0)), List.of(run));

        assertThat(page.allFigures()).containsExactly(two.figures().get(0), busBw, time);
        assertThat(page.fileNames()).containsExactly("h100_allreduce_8gpu_synthetic.png",
                "h100_allreduce_16gpu_2node_synthetic.png", "h100_allreduce_16gpu_2node_synthetic-time.png");
        page.write(dir, false);
        try (var files = Files.list(dir)) {
            assertThat(files).hasSize(4);
        }
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).contains("<meta http-equiv=\"Content-Security-Policy\" content=\""
                        + ReportHtml.CONTENT_SECURITY_POLICY + "\">")
                .contains("<section class=\"run\" id=\"run-h100_allreduce_16gpu_2node_synthetic\">\n"
                        + "<h3>h100_allreduce_16gpu_2node_synthetic</h3>\n<p class=\"provenance\">replayed &lt;here&gt;</p>")
                .contains("<img src=\"h100_allreduce_16gpu_2node_synthetic-time.png\"")
                .contains("<table class=\"sortable\">")
                .contains("<details class=\"notes\"><summary>Models not fitted (1)</summary>\n<ul>\n<li>A: no profile</li>")
                .contains("<details class=\"text\"><summary>as text</summary>\n<pre># a &lt;b&gt;</pre>")
                .doesNotContain("<details class=\"notes\" open");
        // the run's figures come after the page's own, in the order the run lists them
        assertThat(html.indexOf("h100_allreduce_8gpu_synthetic.png")).isLessThan(
                html.indexOf("h100_allreduce_16gpu_2node_synthetic.png"));
        assertThat(html.indexOf("h100_allreduce_16gpu_2node_synthetic.png")).isLessThan(
                html.indexOf("h100_allreduce_16gpu_2node_synthetic-time.png"));
    }
}
