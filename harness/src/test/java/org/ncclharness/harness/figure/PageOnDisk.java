package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What every page the harness writes promises when opened from disk in a real browser (issue 44): each figure it
 * shows is a file in the page's folder and loaded, nothing is requested from anywhere else, nothing on it points
 * elsewhere, and its Content-Security-Policy is enforced. With {@code -Dscreenshots.update=true} the browser tests
 * also write the page's first screen under docs/img, the pictures README shows.
 */
final class PageOnDisk {

    private PageOnDisk() {
    }

    /** Every image on the page: its file in {@code site}, loaded; returns them ({@code src}, {@code height}). */
    static JsonNode everyFigureLoadsFromItsFolder(ChromiumDevTools page, Path site, int figures) {
        JsonNode images = page.evaluate("Array.from(document.images).map(i => ({src: i.getAttribute('src'),"
                + " loaded: i.complete && i.naturalWidth > 0, height: i.naturalHeight}))");
        assertThat(images).as("figures on the page").hasSize(figures);
        for (JsonNode img : images) {
            assertThat(site.resolve(img.get("src").asText())).as("the file the page shows").isRegularFile();
            assertThat(img.get("loaded").asBoolean()).as(img.get("src").asText() + " loaded").isTrue();
        }
        return images;
    }

    /**
     * Nothing but the page and its {@code figures} images was requested, nothing on it points elsewhere, and the
     * browser refuses an image from the network rather than fetching it.
     */
    static void nothingLeavesThePage(ChromiumDevTools page, Path site, int figures) {
        assertThat(page.requests()).hasSize(1 + figures).allSatisfy(url -> assertThat(url)
                .startsWith(site.toUri().toString()));
        assertThat(page.evaluate("Array.from(document.querySelectorAll('[src],[href]')).map(e =>"
                + " e.getAttribute('src') || e.getAttribute('href')).filter(u => /^[a-z]+:|^\\/\\//i.test(u))"
                + ".length").asInt()).as("references with a scheme or a host").isZero();
        assertThat(page.evaluate("document.querySelector('meta[http-equiv=Content-Security-Policy]')"
                + ".content").asText()).isEqualTo(ReportHtml.CONTENT_SECURITY_POLICY);
        String outside = "http://127.0.0.1:9/x.png";
        assertThat(page.evaluate("new Promise(done => { const i = new Image(); i.onload = () => done('loaded');"
                + " i.onerror = () => done('refused'); i.src = '" + outside + "'; })").asText())
                .isEqualTo("refused");
        assertThat(page.blockedReason(outside)).isEqualTo("csp");
    }

    /**
     * Under {@code -Dscreenshots.update=true}, the page's first {@code width × height} CSS pixels to
     * {@code docs/img/<name>}; otherwise nothing.
     */
    static void screenshotIfAsked(HeadlessChromium chromium, Path index, Path work, String name, int width,
                                  int height) throws IOException, InterruptedException {
        if (Boolean.getBoolean("screenshots.update")) {
            Path shot = work.resolve("shot-" + name);
            chromium.screenshot(index, shot, width, height);
            Files.copy(shot, Path.of("../docs/img").resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
