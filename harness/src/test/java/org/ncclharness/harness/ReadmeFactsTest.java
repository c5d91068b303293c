package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.datasets.DatasetCatalog;

/** Counts the README states that a command also gives: they must agree (the README said 82 when 96 were bundled). */
class ReadmeFactsTest {

    @Test
    void theBundledDatasetCountIsTheCatalogs() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        Matcher m = Pattern.compile("(?m)^(\\d+) public measurements \\(").matcher(readme);
        assertThat(m.find()).as("the README's dataset count line").isTrue();
        assertThat(Integer.parseInt(m.group(1))).isEqualTo(DatasetCatalog.bundled().all().size());
    }

    @Test
    void theRealLogCountIsTheFixtureFolders() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        Matcher m = Pattern.compile("The reader is tested against (\\d+) real logs").matcher(readme);
        assertThat(m.find()).as("the README's real-log count").isTrue();
        try (var files = Files.list(Path.of("../calibration/src/test/resources/logs/real"))) {
            assertThat(Integer.parseInt(m.group(1))).isEqualTo(files.filter(f -> f.toString().endsWith(".txt")).count());
        }
    }
}
