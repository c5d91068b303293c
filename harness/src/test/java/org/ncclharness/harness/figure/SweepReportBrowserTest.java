package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.harness.CliRun;

/** A replayed sweep's {@code --report} page, opened from disk in a real browser: its figure loads, it shows. */
class SweepReportBrowserTest {

    @TempDir
    Path dir;

    @Test
    void theSweepPageOpensFromDiskWithItsFigureLoaded() throws Exception {
        assumeFalse(Gpus.probe().ok(), "a GPU is present: the replay path is not taken");
        Path site = dir.resolve("report");
        CliRun r = CliRun.of("sweep", "--dataset", "h100_allreduce_8gpu_1node_aws_p5_batch", "-b", "1M", "-e", "1G",
                "--report", site.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        HeadlessChromium chromium = HeadlessChromium.find(dir);
        Path page = site.resolve("index.html");
        Matcher img = Pattern.compile("<img\\b[^>]*>").matcher(chromium.dumpDom(page));
        // the run in both views: busbw, then time per iteration (log-log)
        for (String view : List.of("", "-time")) {
            assertThat(img.find()).as("figure" + view).isTrue();
            assertThat(img.group()).contains("data-loaded=\"true\"").contains(view + ".png\"");
        }
        assertThat(img.find()).as("two figures, one per view").isFalse();
        Path shot = dir.resolve("shot.png");
        chromium.screenshot(page, shot, 1024, 1400);
        assertThat(Images.distinctColours(Images.readPng(shot), 200)).isGreaterThanOrEqualTo(200);
    }
}
