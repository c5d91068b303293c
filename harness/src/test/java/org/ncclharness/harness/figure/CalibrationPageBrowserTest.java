package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;

/**
 * The {@code calibrate --report} page of bundled datasets (two single-domain runs, a two-node run, one that cannot
 * be calibrated) in a real browser, driven as a reader would: one table per model family with the seed's columns
 * and their units, a column sorted by a click on its header, every figure's file there and loaded, the notes
 * folded, and no request leaving the page's folder.
 *
 * <p>{@code -Dscreenshots.update=true} also writes the page's first screen to docs/img/calibrate-report.png, the
 * picture README shows.
 */
class CalibrationPageBrowserTest {
    private static final List<String> DATASETS = List.of("h100_allreduce_8gpu_azure_ndv5",
            "a100_allreduce_8gpu_oci_bmgpu48", "a100_allreduce_16gpu_2node_oci_roce", "a100_allreduce_10GiB_points_oci");
    /** Every run in both views (FigureView): busbw and time. */
    private static final int FIGURES = 2 * DATASETS.size();

    @TempDir
    Path dir;

    @Test
    void thePageReadsSortsAndLoadsEverythingFromItsOwnFolder() throws Exception {
        Path site = dir.resolve("site");
        List<String> args = new ArrayList<>(List.of("calibrate"));
        args.addAll(DATASETS);
        args.addAll(List.of("--report", site.toString()));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path index = site.resolve("index.html");
        HeadlessChromium chromium = HeadlessChromium.find(dir);

        try (ChromiumDevTools page = chromium.open(index)) {
            // one table per model family, and the runs that were not calibrated
            assertThat(texts(page, "Array.from(document.querySelectorAll('#results table caption'))"
                    + ".map(c => c.textContent)")).hasSize(3).satisfiesExactly(
                            c -> assertThat(c).startsWith("Single-tier α-β"),
                            c -> assertThat(c).startsWith("Across NVLink domains"),
                            c -> assertThat(c).isEqualTo("Not calibrated"));
            assertThat(texts(page, headers(0))).containsSubsequence("interconnect", "β_phys (GB/s)",
                    "BusBW_peak (GB/s)", "u_r (ratio)", "ℓ_link (µs)", "α_A (µs)", "α_B (µs)", "picked model",
                    "RMSPE < 1 MiB (%)", "RMSPE 1-128 MiB (%)", "RMSPE > 128 MiB (%)", "score (%)", "why");
            assertThat(texts(page, headers(1))).contains("β_NV (GB/s)", "picked model", "RMSPE < 1 MiB (%)",
                    "why");

            // u_r: 0.920 (H100, NVLS) above 0.784 (A100) as calibrate lists them; a click sorts up, another down
            String column = column(0, "u_r (ratio)");
            assertThat(texts(page, column)).containsExactly("0.920", "0.784");
            page.evaluate(header(0, "u_r (ratio)") + ".click()");
            assertThat(texts(page, column)).containsExactly("0.784", "0.920");
            assertThat(page.evaluate(header(0, "u_r (ratio)") + ".getAttribute('aria-sort')").asText())
                    .isEqualTo("ascending");
            page.evaluate(header(0, "u_r (ratio)") + ".click()");
            assertThat(texts(page, column)).containsExactly("0.920", "0.784");
            // the rows move whole: the dataset goes with its u_r
            page.evaluate(header(0, "u_r (ratio)") + ".click()");
            assertThat(texts(page, column(0, "dataset"))).containsExactly("a100_allreduce_8gpu_oci_bmgpu48",
                    "h100_allreduce_8gpu_azure_ndv5");

            // a section per run that has points, its figure loaded from a file beside the page
            assertThat(texts(page, "Array.from(document.querySelectorAll('section.run h3')).map(h => h.textContent)"))
                    .containsExactly(DATASETS.toArray(String[]::new));
            // each run in two views: busbw, then time per iteration
            JsonNode images = PageOnDisk.everyFigureLoadsFromItsFolder(page, site, FIGURES);
            assertThat(images.get(1).get("src").asText()).isEqualTo(DATASETS.get(0) + "-time.png");
            // the fitted runs have a residual panel beneath; the one not calibrated has points alone
            assertThat(images.get(0).get("height").asInt()).isEqualTo(ReportPage.FIGURE_WITH_RESIDUALS_HEIGHT_PX);
            assertThat(images.get(6).get("height").asInt()).isEqualTo(ReportPage.FIGURE_HEIGHT_PX);

            // each run's notes are grouped by kind, and folded until opened
            assertThat(texts(page, "Array.from(document.querySelectorAll('#run-h100_allreduce_8gpu_azure_ndv5"
                    + " details.notes summary')).map(s => s.textContent)"))
                    .contains("How it was fitted (2)", "Models not fitted (1)");
            assertThat(page.evaluate("document.querySelectorAll('details.notes').length").asInt()).isPositive();
            assertThat(page.evaluate("document.querySelectorAll('details.notes[open]').length").asInt()).isZero();

            // nothing but the page and its images was requested, and nothing on it points elsewhere
            PageOnDisk.nothingLeavesThePage(page, site, FIGURES);
        }

        PageOnDisk.screenshotIfAsked(chromium, index, dir, "calibrate-report.png", 1440, 1600);
    }

    private static List<String> texts(ChromiumDevTools page, String expression) {
        List<String> out = new ArrayList<>();
        page.evaluate(expression).forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String headers(int table) {
        return "Array.from(document.querySelectorAll('#results table')[" + table + "].querySelectorAll('thead th'))"
                + ".map(th => th.textContent)";
    }

    private static String header(int table, String name) {
        return "Array.from(document.querySelectorAll('#results table')[" + table + "].querySelectorAll('thead th'))"
                + ".find(th => th.textContent === '" + name + "')";
    }

    /** The cells of the named column of a results table, top to bottom. */
    private static String column(int table, String name) {
        return "(() => { const t = document.querySelectorAll('#results table')[" + table + "];"
                + " const k = Array.from(t.querySelectorAll('thead th')).findIndex(th => th.textContent === '" + name
                + "'); return Array.from(t.tBodies[0].rows).map(r => r.cells[k].textContent); })()";
    }
}
