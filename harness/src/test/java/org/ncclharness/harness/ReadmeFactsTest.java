package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.gpu.Gpus;
import org.ncclharness.calibration.datasets.DatasetCatalog;

/**
 * Counts and outputs the README states that a command also gives: they must agree (the README said 82 when 96 were
 * bundled, and showed bringup's "NICs per host are not known" after check had come to know them).
 */
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

    /**
     * The README's bring-up replay is what the command prints, shortened by rule only: the machine's own no-GPU
     * reason and each URL's path become '…'. {@code -Dgolden.update=true} writes the block again from the run.
     */
    @Test
    void theBringupReplayExampleIsWhatBringupPrints(@TempDir Path dir) throws IOException {
        assumeFalse(Gpus.probe().ok(), "a GPU is present: bringup measures rather than replays");
        String command = "bringup --replay --dataset a100_allreduce_16gpu_2node_oci_roce -o ";
        Path out = dir.resolve("bringup-demo");
        CliRun run = CliRun.of((command + out).split(" "));
        assertThat(run.exitCode()).as(run.err()).isZero();
        String shown = run.out().replace(out.toString(), "bringup-demo")
                .replaceAll("\\(no GPU: [^\\n]*?\\): step", "(no GPU: …): step")
                .replaceAll("(https://[^/\\s]+/[^/\\s)]+/)[^\\s)]*", "$1…");
        Path readmeFile = Path.of("../README.md");
        String readme = Files.readString(readmeFile);
        String start = "$ java -jar harness.jar " + command + "bringup-demo\n";
        int from = readme.indexOf(start) + start.length();
        assertThat(from).as("the README's bringup example").isGreaterThanOrEqualTo(start.length());
        int to = readme.indexOf("```", from);
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(readmeFile, readme.substring(0, from) + shown + readme.substring(to));
            readme = Files.readString(readmeFile);
        }
        assertThat(readme.substring(from, readme.indexOf("```", from))).as("README's bringup --replay example"
                + " (-Dgolden.update=true)").isEqualTo(shown);
    }

    /**
     * The refusals the README's "Outputs and {@code -}" section shows are what the commands print, run from the
     * repository root as the README runs them: each {@code $ java -jar harness.jar ...} line, its stderr, and the
     * {@code (exit N)} under it.
     */
    @Test
    void theOutputRefusalsTheReadmeShowsAreWhatTheCommandsPrint() throws IOException, InterruptedException {
        String readme = Files.readString(Path.of("../README.md"));
        int from = readme.indexOf("## Outputs and `-`");
        String section = readme.substring(from, readme.indexOf("\n## ", from + 1));
        Matcher m = Pattern.compile("\\$ java -jar harness\\.jar (.+)\n((?:(?! +\\(exit).*\n)+) +\\(exit (\\d)\\)\n")
                .matcher(section);
        int shown = 0;
        while (m.find()) {
            java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(Path.of(
                    System.getProperty("java.home"), "bin", "java").toString(), "-Djava.awt.headless=true", "-cp",
                    System.getProperty("java.class.path"), org.ncclharness.harness.cli.Main.class.getName()));
            cmd.addAll(java.util.List.of(m.group(1).split(" ")));
            Process p = new ProcessBuilder(cmd).directory(Path.of("..").toFile()).start();
            String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(m.group(1)).isEqualTo(Integer.parseInt(m.group(3)));
            assertThat(err).as(m.group(1)).isEqualTo(m.group(2));
            shown++;
        }
        assertThat(shown).as("examples in the README's Outputs section").isGreaterThanOrEqualTo(3);
    }
}
