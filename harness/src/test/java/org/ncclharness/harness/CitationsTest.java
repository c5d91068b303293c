package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Comments, data files and docs cite docs/ pages or the public sources they follow (nccl-tests, NCCL,
 * ASTRA-sim, JavaCPP), never documents a reader of the repository cannot open.
 */
class CitationsTest {

    private static final Path ROOT = Path.of("..");
    private static final List<String> MODULES = List.of("calibration", "native", "harness", "devtools");

    /** Every main source and resource, every test source, the docs, the README and the scripts. */
    private static List<Path> scanned() throws IOException {
        List<Path> roots = new ArrayList<>();
        for (String m : MODULES) {
            roots.add(ROOT.resolve(m).resolve("src/main"));
            roots.add(ROOT.resolve(m).resolve("src/test/java"));
        }
        roots.addAll(List.of(ROOT.resolve("docs"), ROOT.resolve("scripts"), ROOT.resolve("README.md"),
                ROOT.resolve(".ci")));
        List<Path> files = new ArrayList<>();
        for (Path r : roots) {
            if (Files.exists(r)) {
                try (Stream<Path> s = Files.walk(r)) {
                    s.filter(Files::isRegularFile).filter(CitationsTest::text).forEach(files::add);
                }
            }
        }
        return files;
    }

    private static boolean text(Path p) {
        String n = p.getFileName().toString();
        return !n.endsWith(".png") && !n.endsWith(".svg") && !n.equals(OutsideCitations.class.getSimpleName() + ".java")
                && !n.equals(CitationsTest.class.getSimpleName() + ".java");
    }

    @Test
    void noFileCitesADocumentOutsideTheRepository() throws IOException {
        List<Path> files = scanned();
        assertThat(files).anyMatch(p -> p.endsWith("README.md"))
                .anyMatch(p -> p.toString().endsWith("TimedLoop.java"))
                .anyMatch(p -> p.toString().endsWith("interconnects.json"));
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (CharacterCodingException e) {
                continue;
            }
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = OutsideCitations.PATTERN.matcher(lines.get(i));
                if (m.find()) {
                    found.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + m.group());
                }
            }
        }
        assertThat(found).as("cite the docs/ page or the public source instead").isEmpty();
    }

    @Test
    void thePatternKnowsTheFormsOnceUsed() {
        for (String cited : List.of("exit codes (SPEC §5)", "SPEC section 3", "see ARCHITECTURE", "(reference A.2)",
                "reference D.3–D.5", "stdout (reference B)", "(reference §F)", "reference launch.md §4",
                "(reference: launch.md §1)", "reference/launch.md §1", "javacpp.md §1", "../shared/reference/x.md")) {
            assertThat(OutsideCitations.PATTERN.matcher(cited).find()).as(cited).isTrue();
        }
        for (String fine : List.of("docs/launch.md, \"Rendezvous\"", "nccl-tests src/common.cu", "CommandSpec spec",
                "the reference grid search", "file:/shared/rdzv", "reference Data", "NVIDIA/nccl src/graph/tuning.cc")) {
            assertThat(OutsideCitations.PATTERN.matcher(fine).find()).as(fine).isFalse();
        }
    }
}
