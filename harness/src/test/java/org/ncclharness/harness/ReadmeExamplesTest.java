package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.gpu.Gpus;

/**
 * Every README example of {@code $ java -jar harness.jar ...} with its output is what the command prints today, cut
 * only where the README says so: a line of {@code …} alone stands for any lines, a {@code …} inside a line for any
 * text, {@code (exit N)} after a line for the exit code, and a command with no line under it is shown for what it
 * writes. The examples run in README order in one folder, so a
 * file one writes ({@code --json alps.json}) is there for the next, and a path into the repository
 * ({@code datasets/raw/...}) reads the repository's file under the name the README gives it. The diagnose example
 * had lost its first line this way, unnoticed, while the examples other tests hold had not.
 */
class ReadmeExamplesTest {

    /** The examples another test holds byte for byte, by the start of their command, with that test. */
    private static final Map<String, String> HELD_ELSEWHERE = Map.of(
            "calibrate h100_allreduce_8gpu_azure_ndv5 a100_allreduce_16gpu_2node_aws_p4d_efa_eks", "GoldenOutputTest",
            "bringup --replay", "ReadmeFactsTest",
            "calibrate h100_allreduce_16gpu_2node_aws_p5_efa_slurm --nccl-tuner", "TunerExportTest",
            "convert h100_allreduce_8gpu_azure_ndv5 --csv same.out", "ReadmeFactsTest (Outputs section)",
            "check h100_allreduce_8gpu_azure_ndv5 --report -", "ReadmeFactsTest (Outputs section)",
            // its input is the reader's made-up damaged row, which no file holds; ReaderExamplesTest reads such rows
            "convert damaged.txt", "ReaderExamplesTest");

    private static final Pattern BLOCK = Pattern.compile("```\n(\\$ java -jar harness\\.jar (?:.*\n)*?)```");
    private static final Pattern EXIT = Pattern.compile("\\s+\\(exit (\\d+)(?:;[^)]*)?\\)$");
    private static final Pattern OUTPUT_FILE = Pattern.compile("[\\w.-]+\\.(json|yml|yaml|conf|csv|txt|md)");
    private static final Path REPO = Path.of("..");

    @Test
    void everyReadmeExampleIsWhatItsCommandPrints(@TempDir Path dir) throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        Matcher m = BLOCK.matcher(readme.replace("\\\n    ", ""));
        int checked = 0;
        List<String> differ = new ArrayList<>();
        while (m.find()) {
            List<Step> steps = steps(m.group(1));
            String first = steps.get(0).command();
            if (HELD_ELSEWHERE.keySet().stream().anyMatch(first::startsWith)
                    || first.startsWith("sweep") && Gpus.probe().ok()) { // with a GPU the sweep measures
                continue;
            }
            for (Step s : steps) {
                s.differs(dir).ifPresent(differ::add);
                checked++;
            }
        }
        assertThat(differ).as("README examples whose output differs from what the command prints").isEmpty();
        assertThat(checked).as("README examples checked here").isGreaterThanOrEqualTo(12);
    }

    @Test
    void aCutMatchesWhatItStandsForAndNothingElse() {
        List<String> out = List.of("# a", "b 12 c", "d", "e");
        assertThat(matches(List.of("# a", "…", "e"), out)).isTrue();
        assertThat(matches(List.of("# a", "b … c", "…"), out)).isTrue();
        assertThat(matches(List.of("# a", "b … c"), out)).as("lines after the last shown one").isFalse();
        assertThat(matches(List.of("# a", "d", "…"), out)).as("a line left out without a cut").isFalse();
        assertThat(matches(List.of("…", "b 13 c", "…"), out)).isFalse();
    }

    /**
     * One {@code $} line of a block and the lines shown under it.
     *
     * @param tail the last lines only ({@code | tail -N}), 0 for all
     */
    private record Step(String command, int tail, List<String> shown) {

        /** What differs between the README's lines and the command's, empty where nothing does. */
        Optional<String> differs(Path dir) throws IOException {
            List<String> shownLines = new ArrayList<>(shown);
            Integer exit = null;
            for (int i = 0; i < shownLines.size(); i++) {
                Matcher e = EXIT.matcher(shownLines.get(i));
                if (e.find()) {
                    exit = Integer.valueOf(e.group(1));
                    shownLines.set(i, shownLines.get(i).substring(0, e.start()));
                }
            }
            String printed;
            if (command.startsWith("cat ")) {
                printed = Files.readString(dir.resolve(command.substring(4)));
            } else {
                List<String> args = new ArrayList<>();
                Map<String, String> shownAs = new java.util.LinkedHashMap<>();
                for (String a : command.split(" +")) {
                    String path = Files.isRegularFile(REPO.resolve(a)) ? REPO.resolve(a).toString()
                            : OUTPUT_FILE.matcher(a).matches() ? dir.resolve(a).toString() : a;
                    shownAs.put(path, a);
                    args.add(path);
                }
                CliRun run = CliRun.of(args.toArray(String[]::new));
                if (exit != null && run.exitCode() != exit) {
                    return Optional.of("`" + command + "` exits " + run.exitCode() + ", the README says " + exit);
                }
                printed = run.out() + run.err();
                for (Map.Entry<String, String> e : shownAs.entrySet()) {
                    printed = printed.replace(e.getKey(), e.getValue());
                }
            }
            if (shown.isEmpty()) {
                // a command shown for what it writes (calibrate --json FILE before predict reads it)
                return Optional.empty();
            }
            List<String> lines = printed.lines().toList();
            if (tail > 0) {
                lines = lines.subList(Math.max(0, lines.size() - tail), lines.size());
            }
            return matches(shownLines, lines) ? Optional.empty() : Optional.of("`" + command + "`: the README shows\n"
                    + String.join("\n", shownLines) + "\nand it prints\n" + String.join("\n", lines));
        }
    }

    private static List<Step> steps(String block) {
        List<Step> steps = new ArrayList<>();
        String command = null;
        int tail = 0;
        List<String> shown = new ArrayList<>();
        // every line the block shows, a blank last one too (predict's table ends so); the block ends with a newline
        for (String line : block.substring(0, block.length() - 1).split("\n", -1)) {
            if (line.startsWith("$ ")) {
                if (command != null) {
                    steps.add(new Step(command, tail, shown));
                }
                String c = line.substring(2).replaceFirst("^java -jar harness\\.jar ", "");
                Matcher t = Pattern.compile(" \\| tail -(\\d+)$").matcher(c);
                tail = t.find() ? Integer.parseInt(t.group(1)) : 0;
                command = tail > 0 ? c.substring(0, t.start()) : c;
                shown = new ArrayList<>();
            } else {
                shown.add(line);
            }
        }
        steps.add(new Step(command, tail, shown));
        return steps;
    }

    /** Whether {@code printed} is {@code shown} with its cuts filled in. */
    static boolean matches(List<String> shown, List<String> printed) {
        if (shown.isEmpty()) {
            return printed.isEmpty();
        }
        String first = shown.get(0);
        List<String> rest = shown.subList(1, shown.size());
        if (first.equals("…")) {
            for (int skip = 0; skip <= printed.size(); skip++) {
                if (matches(rest, printed.subList(skip, printed.size()))) {
                    return true;
                }
            }
            return false;
        }
        return !printed.isEmpty() && line(first).matcher(printed.get(0)).matches()
                && matches(rest, printed.subList(1, printed.size()));
    }

    private static Pattern line(String shown) {
        StringBuilder regex = new StringBuilder();
        String[] parts = shown.split("…", -1);
        for (int i = 0; i < parts.length; i++) {
            regex.append(i == 0 ? "" : ".*?").append(Pattern.quote(parts[i]));
        }
        return Pattern.compile(regex.toString());
    }
}
