package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report page in a real browser, opened from disk with nothing else: every figure loads, the page shows. */
class ReportPageBrowserTest {
    private static final Pattern IMG = Pattern.compile("<img\\b[^>]*>");

    @TempDir
    Path dir;

    @Test
    void everyFigureLoadsFromDiskAndThePageIsNotBlank() throws Exception {
        Path site = dir.resolve("report");
        Path page = ReportPages.twoDatasets().write(site, false);
        HeadlessChromium chromium = HeadlessChromium.find(dir);

        List<String> images = images(chromium.dumpDom(page));
        assertThat(images).hasSize(2).allSatisfy(img -> assertThat(img).contains("data-loaded=\"true\""));

        Path shot = dir.resolve("shot.png");
        chromium.screenshot(page, shot, 1024, 1400);
        BufferedImage img = Images.readPng(shot);
        assertThat(img.getWidth()).isEqualTo(1024);
        assertThat(Images.distinctColours(img, 200)).as("colours in the screenshot").isGreaterThanOrEqualTo(200);

        // The mark is real: a figure whose file is gone is marked as not loaded.
        Files.delete(site.resolve(ReportPages.twoDatasets().fileNames().get(1)));
        List<String> after = images(chromium.dumpDom(page));
        assertThat(after).filteredOn(i -> i.contains("data-loaded=\"true\"")).hasSize(1);
        assertThat(after).filteredOn(i -> i.contains("data-loaded=\"false\"")).hasSize(1);
    }

    private static List<String> images(String dom) {
        Matcher m = IMG.matcher(dom);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}
