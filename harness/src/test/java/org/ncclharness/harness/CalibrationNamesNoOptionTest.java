package org.ncclharness.harness;

import org.ncclharness.harness.cli.Main;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The calibration core names no option of this command line (issue 40): what a user states or chooses is a
 * {@code Setting}, worded by the command line ({@link CliWording}). Every string literal of calibration's main
 * sources is read (comments skipped) and searched for every option name picocli's model of {@link Main} holds, of
 * every command; the only literals that may hold one are those of classes that read another program's command
 * line, each listed with that program and the options it shares with ours.
 */
class CalibrationNamesNoOptionTest {

    private static final Path SOURCES = Path.of("../calibration/src/main/java");

    /** Another program's options that are also ours, where a class reads that program's command line or argv. */
    private record Allowed(Set<String> options, String why) {
    }

    private static final Map<String, Allowed> OTHER_PROGRAMS = Map.of(
            "org/ncclharness/calibration/read/LaunchLine.java", new Allowed(Set.of("--nodes", "-N", "-n", "-g", "-t",
                    "--ngpus", "--nthreads"), "reads a log's launch line: mpirun's and srun's options (--nodes, -N,"
                    + " -n) and nccl-tests' own (-g/--ngpus, -t/--nthreads)"),
            "org/ncclharness/calibration/check/RunContext.java", new Allowed(Set.of("-t", "-g", "-b", "-e", "-f", "-i",
                    "-w", "-n", "-m", "-c", "-G"), "writes the nccl-tests command line a log's preamble implies"),
            "org/ncclharness/calibration/read/SeparateJobs.java", new Allowed(Set.of("-N"),
                    "says what a log shows: nccl-tests started its sweep again (its -N, run cycles)"),
            "org/ncclharness/calibration/format/TableExtras.java", new Allowed(Set.of("-m", "-n"),
                    "prints nccl-tests 2.19.6's own '# Blocking Enabled' lines, which name its -m and -n"),
            "org/ncclharness/calibration/calibrate/TwoTierTable.java", new Allowed(Set.of("--joint"),
                    "its main is a documentation tool with an argument of its own (docs/two-tier.md), not this"
                            + " command line"));

    /** Another program's option named with that program, anywhere: the words are the program's, not ours. */
    private static final Map<Pattern, String> OTHER_PROGRAM_WORDS = Map.of(
            Pattern.compile("\\b(grep|jq|zstd) -\\p{Alpha}\\b"), "a shell tool's option, in a command to run",
            Pattern.compile("nccl-tests'? -J\\b"), "nccl-tests' JSON output, a format the readers take");


    /** An option-like word: a dash or two and a letter, not inside a word ({@code per-host}, {@code N-1}). */
    private static final Pattern OPTION = Pattern.compile("(?<![\\p{Alnum}_-])--?\\p{Alpha}[\\p{Alnum}-]*");

    /** Every option name (and negated form) of every command, from picocli's model. */
    static Set<String> optionNames() {
        Set<String> names = new TreeSet<>();
        collect(Main.commandLine(), names);
        return names;
    }

    private static void collect(CommandLine cl, Set<String> names) {
        CommandSpec spec = cl.getCommandSpec();
        for (OptionSpec o : spec.options()) {
            for (String n : o.names()) {
                names.add(n);
                if (o.negatable()) {
                    names.add(spec.negatableOptionTransformer().makeNegative(n, spec));
                }
            }
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, names));
    }

    @Test
    void theModelHoldsEveryCommandsOptions() {
        assertThat(optionNames()).contains("--gpus", "--force", "--keep-glitches", "--expect-busbw", "--no-replay",
                "-e", "--grid-points", "--markdown", "--csv");
    }

    @Test
    void noStringLiteralOfCalibrationsMainCodeNamesAnOption() throws IOException {
        Set<String> options = optionNames();
        List<String> found = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(SOURCES)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(100);
        Set<String> allowedSeen = new TreeSet<>();
        for (Path f : files) {
            String rel = SOURCES.relativize(f).toString().replace('\\', '/');
            Allowed allowed = OTHER_PROGRAMS.get(rel);
            for (Literal lit : JavaLiterals.of(Files.readString(f, StandardCharsets.UTF_8))) {
                Matcher m = OPTION.matcher(withoutOtherProgramsWords(lit.text()));
                while (m.find()) {
                    String name = m.group();
                    if (!options.contains(name)) {
                        continue;
                    }
                    if (allowed != null && allowed.options().contains(name)) {
                        allowedSeen.add(rel + " " + name);
                        continue;
                    }
                    found.add(rel + ":" + lit.line() + ": " + name + " in \"" + lit.text() + "\"");
                }
            }
        }
        assertThat(found).as("name a Setting (org.ncclharness.calibration.advice) instead: the command line words it")
                .isEmpty();
        // the allowlist is no wider than what the classes read
        List<String> unused = new ArrayList<>();
        OTHER_PROGRAMS.forEach((file, a) -> a.options().stream().filter(o -> !allowedSeen.contains(file + " " + o))
                .forEach(o -> unused.add(file + " " + o)));
        assertThat(unused).as("allowed but not there").isEmpty();
    }

    private static String withoutOtherProgramsWords(String text) {
        String t = text;
        for (Pattern p : OTHER_PROGRAM_WORDS.keySet()) {
            t = p.matcher(t).replaceAll(" ");
        }
        return t;
    }

    @Test
    void anotherProgramsOptionNamedWithItIsNotOurs() {
        assertThat(withoutOtherProgramsWords("cut it (grep -v 'NCCL INFO' keeps the tables)")).doesNotContain("-v");
        assertThat(withoutOtherProgramsWords("nccl-tests' -J JSON; pass --force")).doesNotContain("-J")
                .contains("--force");
    }

    @Test
    void theScanFindsAnOptionInALiteralAndNoneInAComment() {

        String source = """
                class X {
                    // pass --gpus N
                    /* --force */ String a = "pass --gpus N", b = "per-host N-1 x-e";
                    char c = '"'; String d = "a \\" --force";
                }
                """;
        List<Literal> lits = JavaLiterals.of(source);
        assertThat(lits).extracting(Literal::text).containsExactly("pass --gpus N", "per-host N-1 x-e",
                "a \\\" --force");
        assertThat(lits).extracting(Literal::line).containsExactly(3, 3, 4);
        List<String> named = new ArrayList<>();
        for (Literal l : lits) {
            Matcher m = OPTION.matcher(l.text());
            while (m.find()) {
                named.add(m.group());
            }
        }
        assertThat(named).containsExactly("--gpus", "--force");
    }

    /** A string literal's text as written (escapes kept) and its first line. */
    record Literal(String text, int line) {
    }

    /** The string literals of a Java source, comments and character literals skipped. */
    static final class JavaLiterals {

        private JavaLiterals() {
        }

        static List<Literal> of(String src) {
            List<Literal> out = new ArrayList<>();
            int line = 1;
            int i = 0;
            while (i < src.length()) {
                char c = src.charAt(i);
                if (c == '\n') {
                    line++;
                    i++;
                } else if (src.startsWith("//", i)) {
                    i = src.indexOf('\n', i) < 0 ? src.length() : src.indexOf('\n', i);
                } else if (src.startsWith("/*", i)) {
                    int end = src.indexOf("*/", i + 2);
                    end = end < 0 ? src.length() : end + 2;
                    line += count(src, i, end);
                    i = end;
                } else if (src.startsWith("\"\"\"", i)) {
                    int end = src.indexOf("\"\"\"", i + 3);
                    while (end > 0 && src.charAt(end - 1) == '\\') {
                        end = src.indexOf("\"\"\"", end + 1);
                    }
                    end = end < 0 ? src.length() : end;
                    out.add(new Literal(src.substring(i + 3, end), line));
                    line += count(src, i, end);
                    i = Math.min(src.length(), end + 3);
                } else if (c == '"' || c == '\'') {
                    int j = i + 1;
                    while (j < src.length() && src.charAt(j) != c && src.charAt(j) != '\n') {
                        j += src.charAt(j) == '\\' ? 2 : 1;
                    }
                    if (c == '"') {
                        out.add(new Literal(src.substring(i + 1, Math.min(j, src.length())), line));
                    }
                    i = j + 1;
                } else {
                    i++;
                }
            }
            return out;
        }

        private static int count(String s, int from, int to) {
            int n = 0;
            for (int k = from; k < to; k++) {
                if (s.charAt(k) == '\n') {
                    n++;
                }
            }
            return n;
        }
    }
}
