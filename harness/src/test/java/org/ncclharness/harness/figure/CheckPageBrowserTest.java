package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.CliRun;

/**
 * The {@code check --report} page of the bundled two-node RoCE run README's ticket shows, in a real browser: the
 * run in both views (busbw with the judgement drawn in, time), each figure a file beside the page and loaded, and
 * no request leaving the page's folder.
 *
 * <p>{@code -Dscreenshots.update=true} also writes the page's first screen to docs/img/check-report.png, the
 * picture README shows.
 */
class CheckPageBrowserTest {
    private static final String DATASET = "a100_allreduce_16gpu_2node_oci_roce";

    @TempDir
    Path dir;

    @Test
    void thePageShowsTheJudgedRunInBothViewsFromItsOwnFolder() throws Exception {
        Path site = dir.resolve("site");
        CliRun run = CliRun.of("check", DATASET, "--report", site.toString());
        // the run is judged WARN (35 % of the line rate), exit 0 without --strict
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path index = site.resolve("index.html");
        HeadlessChromium chromium = HeadlessChromium.find(dir);

        try (ChromiumDevTools page = chromium.open(index)) {
            assertThat(page.evaluate("document.body.textContent").asText()).contains(DATASET).contains("WARN");
            // busbw, then time per iteration (log-log)
            var images = PageOnDisk.everyFigureLoadsFromItsFolder(page, site, 2);
            assertThat(images.get(1).get("src").asText()).endsWith("-time.png");
            PageOnDisk.nothingLeavesThePage(page, site, 2);
        }

        PageOnDisk.screenshotIfAsked(chromium, index, dir, "check-report.png", 1280, 1400);
    }
}
