package org.ncclharness.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The calibration core reads nothing back from a map by key with casts: a configuration, a report's model, is a
 * record. A source scan, since a local variable's generic type never reaches the class files.
 */
class UntypedMapsTest {

    /** {@code Map<String, Object>} and {@code Map<String, ?>}, however spaced. */
    private static final Pattern UNTYPED = Pattern.compile("Map\\s*<\\s*String\\s*,\\s*(Object|\\?)\\s*>");

    @Test
    void thePatternFindsTheMapsItIsMeantToFind() {
        assertThat(UNTYPED.matcher("    public Map<String, Object> configuration() {").find()).isTrue();
        assertThat(UNTYPED.matcher("static CostModel rebuild(String form, Map<String,?> c)").find()).isTrue();
        assertThat(UNTYPED.matcher("Map<String, Double> parameters()").find()).isFalse();
    }

    @Test
    void noMainSourceHoldsAMapOfStringToObject() throws IOException {
        List<String> found;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            found = files.filter(p -> p.toString().endsWith(".java")).flatMap(UntypedMapsTest::untyped).toList();
        }
        assertThat(found).isEmpty();
    }

    private static Stream<String> untyped(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return java.util.stream.IntStream.range(0, lines.size())
                    .filter(i -> UNTYPED.matcher(lines.get(i)).find())
                    .mapToObj(i -> file + ":" + (i + 1) + ": " + lines.get(i).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
