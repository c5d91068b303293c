package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.CliRun;

/**
 * The {@code bringup} page of README's replayed bring-up (bundled runs, no GPU), in a real browser: labelled a
 * replay, steps 2 to 4 each in both views, each figure a file beside the page and loaded, and no request leaving
 * the page's folder.
 *
 * <p>{@code -Dscreenshots.update=true} also writes the page's first screen to docs/img/bringup-report.png, the
 * picture README shows.
 */
class BringupPageBrowserTest {

    @TempDir
    Path dir;

    @Test
    void theReplayedBringupPageShowsEachStepInBothViewsFromItsOwnFolder() throws Exception {
        assumeFalse(Gpus.probe().ok(), "a GPU is present: the replay path is not taken");
        Path site = dir.resolve("bringup-demo");
        CliRun run = CliRun.of("bringup", "--replay", "--dataset", "a100_allreduce_16gpu_2node_oci_roce", "-o",
                site.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path index = site.resolve("index.html");
        HeadlessChromium chromium = HeadlessChromium.find(dir);

        try (ChromiumDevTools page = chromium.open(index)) {
            assertThat(page.evaluate("document.body.textContent").asText()).contains("REPLAY, not measured here");
            // steps 2, 3 and 4 (step 1 has no bundled run of one GPU), each as busbw and as time
            var images = PageOnDisk.everyFigureLoadsFromItsFolder(page, site, 6);
            assertThat(images).filteredOn(i -> i.get("src").asText().endsWith("-time.png")).hasSize(3);
            PageOnDisk.nothingLeavesThePage(page, site, 6);
        }

        PageOnDisk.screenshotIfAsked(chromium, index, dir, "bringup-report.png", 1280, 1600);
    }
}
