package org.ncclharness.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.ncclharness.harness.exit.ExitCode;

/**
 * After packaging: the product jar holds nothing of the developer tools (no class of this module, no fuzz or
 * synthetic-data class), and devtools.jar runs from the build tree as the README shows.
 */
class ShippedJarIT {
    private static final Path HARNESS_JAR = Path.of("..", "harness", "target", "harness.jar");
    private static final Path DEVTOOLS_JAR = Path.of("target", "devtools.jar");

    private static Set<String> classes(Path jar) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")).collect(Collectors.toSet());
        }
    }

    @Test
    void harnessJarHoldsNoDeveloperToolAndNoSyntheticDataClass() throws IOException {
        Set<String> shipped = classes(HARNESS_JAR);
        Set<String> tools = classes(DEVTOOLS_JAR);
        assertThat(tools).contains("org/ncclharness/devtools/fuzz/Mutation.class",
                "org/ncclharness/devtools/twotier/TwoTierBench.class");
        assertThat(shipped).contains("org/ncclharness/harness/cli/Main.class").doesNotContainAnyElementsOf(tools);
        assertThat(shipped).noneMatch(n -> n.startsWith("org/ncclharness/") && n.matches("(?i).*(fuzz|synthetic).*"))
                .noneMatch(n -> n.startsWith("org/ncclharness/devtools/"));
    }

    @Test
    void devtoolsJarRunsFromTheBuildTree() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-jar", DEVTOOLS_JAR.toString(), "fuzz", "--cases", "28",
                "--command-lines", "5")
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(600, TimeUnit.SECONDS)).as("only a hang takes 10 minutes").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(ExitCode.OK);
        assertThat(out).startsWith("# fuzz: 28 cases, seed 1, ").contains("defects: 0")
                .contains("# command lines: 5, seed 1, ");
    }
}
