package org.ncclharness.calibration.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A generated block of docs/sweep-and-check.md: rewritten with -Ddocs.update=true, else compared. */
final class Docs {

    static final Path PAGE = Path.of("../docs/sweep-and-check.md");

    private Docs() {
    }

    static void replaceBlock(String name, String writer, String body) throws IOException {
        String text = Files.readString(PAGE);
        String begin = "<!-- " + name + ":begin (written by " + writer + "; mvn test -Ddocs.update=true rewrites it)"
                + " -->\n";
        String end = "<!-- " + name + ":end -->";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        assertThat(from).as("%s has no %s block", PAGE, name).isNotNegative();
        assertThat(to).as("%s has no end of its %s block", PAGE, name).isGreaterThan(from);
        String regenerated = text.substring(0, from + begin.length()) + body + text.substring(to);
        if (Boolean.getBoolean("docs.update")) {
            Files.writeString(PAGE, regenerated);
        }
        assertThat(text).as("%s is stale: mvn test -Ddocs.update=true", PAGE).isEqualTo(regenerated);
    }
}
