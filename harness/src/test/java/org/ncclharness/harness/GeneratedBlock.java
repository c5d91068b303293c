package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A block of a committed document that a test writes: between its two markers it must be what the test generated;
 * {@code -Ddocs.update=true} writes it there instead of failing.
 */
public final class GeneratedBlock {

    private GeneratedBlock() {
    }

    /** Holds {@code doc}'s text between {@code begin} and {@code end} to {@code content}. */
    public static void hold(Path doc, String begin, String end, String content) throws IOException {
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        assertThat(from).as("%s has the block %s", doc, begin.strip()).isNotNegative();
        String regenerated = text.substring(0, from + begin.length()) + content + text.substring(to);
        if (Boolean.getBoolean("docs.update")) {
            Files.writeString(doc, regenerated, StandardCharsets.UTF_8);
            text = regenerated;
        }
        assertThat(text).as("%s is stale: mvn test -Ddocs.update=true", doc).isEqualTo(regenerated);
    }
}
