package org.ncclharness.harness;

import org.ncclharness.harness.cli.Main;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.OutputFolder;
import org.ncclharness.harness.options.OutputImage;
import org.ncclharness.harness.options.OutputRule;
import org.ncclharness.harness.options.OutputTarget;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The rule for {@code -} (README, "Conventions"), for every output option of every command, found by its type in
 * picocli's model of {@link Main}: with {@code -}, a command either writes that output alone to standard output (the
 * same bytes as to a file) or refuses in one line with exit 2; no file or folder named {@code -} (or {@code -.png},
 * ...) appears in its working directory. Every option runs in this JVM; one of each outcome also runs as a user
 * runs it, in a JVM of its own in an empty working directory.
 */
class OutputOptionsWalkTest {

    /** One empty working directory per run below it, and the runs' captured streams. */
    @TempDir
    static Path root;

    private static final String DATASET = "h100_allreduce_8gpu_azure_ndv5";
    private static final Path RAW = Path.of("../datasets/raw/" + DATASET + ".txt").toAbsolutePath().normalize();

    /** A command line on which each command with an output succeeds; every such command must have one. */
    private static final Map<String, List<String>> BASE = Map.of(
            "sweep", List.of("sweep", "-b", "1K", "-e", "4K", "--no-calibrate"), // a replay where there is no GPU
            "check", List.of("check", DATASET),
            "diagnose", List.of("diagnose", DATASET),
            "bringup", List.of("bringup", "--replay", "-N", "1"),
            "calibrate", List.of("calibrate", DATASET),
            "plot", List.of("plot", DATASET),
            "accuracy", List.of("accuracy"),
            "datasets import", List.of("datasets", "import", RAW.toString()),
            "datasets", List.of("datasets"),
            "convert", List.of("convert", DATASET));

    /**
     * Options and parameters whose label or type looks like a file or folder but that name no output, each with
     * why; anything else that looks so must be an output type, or this test fails.
     */
    private static final Map<String, String> NOT_OUTPUTS = Map.ofEntries(
            Map.entry("sweep --nccl-lib", "a folder read: where libnccl.so is"),
            Map.entry("bringup --nccl-lib", "a folder read: where libnccl.so is"),
            Map.entry("doctor --nccl-lib", "a folder read: where libnccl.so is"),
            Map.entry("gpus --nccl-lib", "a folder read: where libnccl.so is"),
            Map.entry("bench launch --nccl-lib", "a folder read: where libnccl.so is"),
            Map.entry("sweep --rendezvous", "the job's meeting point, shared by its processes and removed at exit"),
            Map.entry("bringup --rendezvous", "the job's meeting point, shared by its processes and removed at exit"),
            Map.entry("doctor --rendezvous", "the job's meeting point, shared by its processes and removed at exit"),
            Map.entry("bench barrier --rendezvous", "the job's meeting point, shared by its processes and removed at"
                    + " exit"),
            Map.entry("check --baseline", "a run read"),
            Map.entry("bringup --baseline", "a run read"),
            Map.entry("check --calibration", "a calibrate --json report read"),
            Map.entry("predict --calibration", "a calibrate --json report read"),
            Map.entry("plot --calibration", "a calibrate --json report read"),
            Map.entry("calibrate --config", "the configuration of an input file"),
            Map.entry("calibrate <FILE>", "the inputs"),
            Map.entry("convert <FILE>", "the input"),
            Map.entry("datasets import <RAW>", "the raw dataset texts read"));

    /**
     * Where the bytes on standard output may differ from the file's, and why: a record on standard output has no
     * folder to put its figure beside, so it says that none was written (CheckCommandTest holds what it says).
     */
    private static final Map<String, UnaryOperator<String>> DIFFERS = Map.of(
            "check --markdown", s -> s.replaceAll("\n## Figure\n\n[^\n]*\n", ""));

    /** Each output type with the one converter that makes it. */
    private static final Map<Class<?>, Class<?>> CONVERTERS = Map.of(
            OutputTarget.class, OutputTarget.Converter.class,
            OutputFolder.class, OutputFolder.Converter.class,
            OutputImage.class, OutputImage.Converter.class);

    private record Found(String command, OptionSpec option) {
        String name() {
            return command + " " + OutputRule.nameOf(option);
        }
    }

    /** Every option of every command below the top, the top's too. */
    private static List<Found> allOptions() {
        List<Found> all = new ArrayList<>();
        walk(Main.commandLine(), all);
        return all;
    }

    private static void walk(CommandLine cl, List<Found> into) {
        CommandSpec spec = cl.getCommandSpec();
        String command = spec.qualifiedName(" ").substring(spec.root().name().length()).strip();
        spec.options().forEach(o -> into.add(new Found(command, o)));
        cl.getSubcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName())) { // an alias is the same command again
                walk(sub, into);
            }
        });
    }

    private static List<Found> outputOptions() {
        return allOptions().stream().filter(f -> CONVERTERS.containsKey(f.option().type())).toList();
    }

    /** A label or a type that says file or folder: FILE, DIR, OUT, PATH, or a Path. */
    private static boolean looksLikeAPath(ArgSpec a) {
        boolean pathType = a.type() == Path.class || a.type() == java.io.File.class
                || Stream.of(a.auxiliaryTypes()).anyMatch(t -> t == Path.class || t == java.io.File.class);
        return pathType || a.paramLabel().matches("(?i).*\\b(FILE|DIR|OUT|PATH)\\b.*");
    }

    @Test
    void everyOptionThatLooksLikeAFileOrFolderIsAnOutputTypeOrAKnownInput() {
        Set<String> seen = new TreeSet<>();
        List<String> unclassified = new ArrayList<>();
        CommandLine top = Main.commandLine();
        List<CommandSpec> specs = new ArrayList<>();
        collect(top, specs);
        for (CommandSpec spec : specs) {
            String command = spec.qualifiedName(" ").substring(spec.root().name().length()).strip();
            List<ArgSpec> args = new ArrayList<>(spec.options());
            args.addAll(spec.positionalParameters());
            for (ArgSpec a : args) {
                String name = command + " " + (a instanceof OptionSpec o ? OutputRule.nameOf(o)
                        : "<" + a.paramLabel() + ">");
                if (CONVERTERS.containsKey(a.type()) || !looksLikeAPath(a)) {
                    continue;
                }
                seen.add(name);
                if (!NOT_OUTPUTS.containsKey(name)) {
                    unclassified.add(name + " (" + a.paramLabel() + ", " + a.type().getSimpleName() + ")");
                }
            }
        }
        assertThat(unclassified).as("options that look like a file or folder: make each an OutputTarget,"
                + " OutputFolder or OutputImage, or list it in NOT_OUTPUTS saying what it reads").isEmpty();
        assertThat(seen).as("NOT_OUTPUTS entries that match no option any more").containsAll(NOT_OUTPUTS.keySet());
    }

    private static void collect(CommandLine cl, List<CommandSpec> into) {
        into.add(cl.getCommandSpec());
        cl.getSubcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName())) {
                collect(sub, into);
            }
        });
    }

    @Test
    void everyOutputOptionIsMadeByItsTypesOneConverterAndItsCommandHasACommandLineHere() {
        List<Found> outputs = outputOptions();
        assertThat(outputs).extracting(Found::name).contains("convert --csv", "check --markdown", "check --figure",
                "check --report", "sweep --json", "bringup --out", "plot --out", "datasets import --out");
        for (Found f : outputs) {
            assertThat(f.option().converters()).as(f.name()).hasSize(1);
            assertThat(f.option().converters()[0].getClass()).as(f.name()).isEqualTo(CONVERTERS.get(f.option().type()));
            assertThat(BASE).as("a command line for " + f.command()).containsKey(f.command());
        }
        assertThat(outputs.stream().map(Found::command).distinct().toList()).as("BASE entries of no output command")
                .containsExactlyInAnyOrderElementsOf(BASE.keySet());
    }

    /**
     * Each output option in this JVM, whose working directory (this module's folder) is where a file named {@code -}
     * would appear; {@link #aUsersOwnProcessInAnEmptyFolderDoesAsThisJvmDoes} holds that a process of its own, in an
     * empty folder, does the same (issue 43: one JVM started per outcome, not one per option).
     */
    @TestFactory
    Stream<DynamicTest> everyOutputOptionTakesDashForStandardOutputOrRefusesInOneLine() throws IOException {
        Set<String> before = dashNamed(HERE);
        return outputOptions().stream().map(f -> DynamicTest.dynamicTest(f.name() + " -", () -> {
            String option = OutputRule.nameOf(f.option());
            List<String> args = new ArrayList<>(BASE.get(f.command()));
            args.addAll(List.of(option, "-"));
            CliRun dash = CliRun.of(args.toArray(String[]::new));
            assertThat(dashNamed(HERE)).as("%s: files or folders named '-' in the working directory", args)
                    .isEqualTo(before);
            if (dash.exitCode() == ExitCode.USAGE) {
                assertThat(dash.err().strip().lines()).as("%s: one line on stderr", args).hasSize(1);
                assertThat(dash.out()).as("%s: nothing on stdout", args).isEmpty();
                assertThat(dash.err()).as("%s names the option", args).contains(option);
                return;
            }
            assertThat(dash.exitCode()).as("%s: exit 0 or exit 2; stderr: %s", args, dash.err()).isZero();
            assertThat(f.option().type()).as("%s: only a one-file text output takes -", args)
                    .isEqualTo(OutputTarget.class);
            assertThat(dash.out()).as("%s wrote nothing on stdout", args).isNotEmpty();
            assertThat(normal(f, dash.out())).as("%s: stdout holds the output alone, as a file gets it", args)
                    .isEqualTo(normal(f, asAFile(f, option)));
        }));
    }

    /**
     * The process boundary, once per outcome: the real entry point in a JVM of its own, in an empty working
     * directory and a clean environment, writes a one-file output given {@code -} to its standard output (the same
     * bytes as this JVM's run) and refuses a folder output given {@code -} in one line with exit 2, leaving no file
     * or folder named {@code -} either way.
     */
    @Test
    void aUsersOwnProcessInAnEmptyFolderDoesAsThisJvmDoes() throws IOException, InterruptedException {
        List<String> takes = List.of("convert", DATASET, "--csv", "-");
        Run out = Run.in(Files.createTempDirectory(root, "jvm"), takes);
        assertThat(out.rc()).as(out.err()).isZero();
        assertThat(out.dashNamed()).isEmpty();
        assertThat(out.out()).isNotEmpty().isEqualTo(CliRun.of(takes.toArray(String[]::new)).out());

        List<String> refuses = new ArrayList<>(BASE.get("bringup"));
        refuses.addAll(List.of("--out", "-"));
        Run refused = Run.in(Files.createTempDirectory(root, "jvm"), refuses);
        assertThat(refused.rc()).as(refused.err()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.err().strip().lines()).hasSize(1);
        assertThat(refused.err()).contains("--out");
        assertThat(refused.out()).isEmpty();
        assertThat(refused.dashNamed()).isEmpty();
        assertThat(refused.err()).isEqualTo(CliRun.of(refuses.toArray(String[]::new)).err());
    }

    /** This JVM's working directory: where a relative name, {@code -} written as a file's, lands. */
    private static final Path HERE = Path.of("").toAbsolutePath();

    /** The files and folders named {@code -} or {@code -.EXT} under {@code dir}, the build's output left out. */
    private static Set<String> dashNamed(Path dir) throws IOException {
        Set<String> found = new TreeSet<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                if (d.equals(dir.resolve("target"))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                visit(d);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                visit(f);
                return FileVisitResult.CONTINUE;
            }

            private void visit(Path p) {
                String n = p.getFileName() == null ? "" : p.getFileName().toString();
                if (n.equals("-") || n.startsWith("-.")) {
                    found.add(dir.relativize(p).toString());
                }
            }
        });
        return found;
    }

    /** A real two-host log with NCCL's lines, which every command that reads a run reads. */
    private static final Path LOG = Path.of("../calibration/src/test/resources/logs/ncclinfo/"
            + "ib_rdma_plugin_v8_gdr_h100_2node_ring_qps64_tests319.txt").toAbsolutePath().normalize();

    /** The commands that read a file the user names, and the base argument that names it. */
    private static final Map<String, String> INPUT = Map.of("check", DATASET, "diagnose", DATASET, "calibrate",
            DATASET, "plot", DATASET, "convert", DATASET, "datasets import", RAW.toString());

    /**
     * README, "Outputs": two outputs of one command never name one file. Every pair of output options of every
     * command, both given one name (one through {@code ..}): one line naming both, exit 2, before any work (nothing
     * on stdout, no file made).
     */
    @TestFactory
    Stream<DynamicTest> everyTwoOutputsOfACommandOnOneFileAreRefusedBeforeAnyWork() {
        List<Found> outputs = outputOptions();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            for (int j = i + 1; j < outputs.size(); j++) {
                Found a = outputs.get(i);
                Found b = outputs.get(j);
                if (!a.command().equals(b.command())) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(a.name() + " and " + OutputRule.nameOf(b.option()), () -> {
                    Path dir = Files.createTempDirectory(root, "same");
                    Files.createDirectory(dir.resolve("sub"));
                    List<String> args = new ArrayList<>(BASE.get(a.command()));
                    args.addAll(List.of(OutputRule.nameOf(a.option()), dir.resolve("same").toString(),
                            OutputRule.nameOf(b.option()), dir.resolve("sub/../same").toString(), "--force"));
                    CliRun r = CliRun.of(args.toArray(String[]::new));
                    assertThat(r.exitCode()).as("%s: %s", args, r.err()).isEqualTo(ExitCode.USAGE);
                    assertThat(r.err().strip().lines()).as("%s: one line", args).hasSize(1);
                    assertThat(r.err()).contains(OutputRule.nameOf(a.option()), OutputRule.nameOf(b.option()),
                            "name the same file");
                    assertThat(r.out()).as("%s: before any work", args).isEmpty();
                    assertThat(dir.resolve("same")).doesNotExist();
                }));
            }
        }
        assertThat(tests).as("commands with two outputs").hasSizeGreaterThan(5);
        return tests.stream();
    }

    /**
     * README, "Outputs": an output never replaces an input, even with --force. Every output option of every command
     * that reads a file, given that file through a symbolic link: one line, exit 2, the input untouched.
     */
    @TestFactory
    Stream<DynamicTest> anOutputNamingAnInputThroughALinkIsRefusedEvenWithForce() {
        return outputOptions().stream().filter(f -> INPUT.containsKey(f.command()))
                .map(f -> DynamicTest.dynamicTest(f.name() + " on the input", () -> {
                    Path dir = Files.createTempDirectory(root, "input");
                    Path input = dir.resolve("run.txt");
                    Files.copy(f.command().equals("datasets import") ? RAW : LOG, input);
                    byte[] before = Files.readAllBytes(input);
                    Path link = Files.createSymbolicLink(dir.resolve("link.out"), input.getFileName());
                    List<String> args = new ArrayList<>(BASE.get(f.command()).stream()
                            .map(a -> a.equals(INPUT.get(f.command())) ? input.toString() : a).toList());
                    args.addAll(List.of(OutputRule.nameOf(f.option()), link.toString(), "--force"));
                    CliRun r = CliRun.of(args.toArray(String[]::new));
                    assertThat(r.exitCode()).as("%s: %s", args, r.err()).isEqualTo(ExitCode.USAGE);
                    assertThat(r.err().strip().lines()).as("%s: one line", args).hasSize(1);
                    assertThat(r.err()).contains(OutputRule.nameOf(f.option()), "names the input " + input);
                    assertThat(r.out()).isEmpty();
                    assertThat(Files.readAllBytes(input)).isEqualTo(before);
                    assertThat(Files.isSymbolicLink(link)).isTrue();
                }));
    }

    /**
     * README, "Outputs": every output location is checked before the work starts. Each output option of each
     * command, given a place no file can be made in ({@code /proc}, which even root cannot write): one line that
     * names the place, exit 3, nothing on stdout.
     */
    @TestFactory
    Stream<DynamicTest> everyOutputLocationIsCheckedBeforeTheWork() {
        return outputOptions().stream().map(f -> DynamicTest.dynamicTest(f.name() + " in /proc", () -> {
            String place = "/proc/nccl-harness-out-" + f.option().type().getSimpleName().toLowerCase()
                    + (f.option().type() == OutputImage.class ? ".png" : "");
            List<String> args = new ArrayList<>(BASE.get(f.command()));
            args.addAll(List.of(OutputRule.nameOf(f.option()), place));
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertThat(r.exitCode()).as("%s: %s", args, r.err()).isEqualTo(ExitCode.ENVIRONMENT);
            assertThat(r.err().strip().lines()).as("%s: one line", args).hasSize(1);
            assertThat(r.err()).contains(place);
            assertThat(r.out()).as("%s: before any work", args).isEmpty();
        }));
    }

    /**
     * The same output written to a file: accuracy's is docs/model-accuracy.md, which AccuracyCommandTest holds. The
     * file is named by its whole path, in a folder of its own.
     */
    private static String asAFile(Found f, String option) throws IOException {
        if (f.command().equals("accuracy")) {
            return Files.readString(Path.of("../docs/model-accuracy.md"), StandardCharsets.UTF_8);
        }
        Path dir = Files.createTempDirectory(root, "file");
        String name = dir.resolve("out." + option.replace("--", "").replace("-", "")).toString();
        List<String> args = new ArrayList<>(BASE.get(f.command()));
        args.addAll(List.of(option, name));
        CliRun file = CliRun.of(args.toArray(String[]::new));
        assertThat(file.exitCode()).as("%s: %s", args, file.err()).isZero();
        // the command line in the file names the file where standard output's names '-'
        return Files.readString(Path.of(name), StandardCharsets.UTF_8).replace(name, "-");
    }

    private static String normal(Found f, String text) {
        return DIFFERS.getOrDefault(f.command() + " " + OutputRule.nameOf(f.option()), s -> s).apply(text);
    }

    /** One command line run as a user runs it: the real entry point in a JVM of its own, in {@code dir}. */
    private record Run(int rc, String out, String err, List<String> dashNamed) {

        static Run in(Path dir, List<String> args) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-XX:+UseSerialGC", "-Djava.awt.headless=true", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName()));
            cmd.addAll(args);
            Path out = Files.createTempFile(root, "walk", ".out");
            Path err = Files.createTempFile(root, "walk", ".err");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            // a clean environment: no launcher of the build's own, no HARNESS_NO_REPLAY
            pb.environment().keySet().removeIf(k -> k.startsWith("OMPI_") || k.startsWith("PMIX_")
                    || k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("HARNESS_")
                    || k.startsWith("NCCL_") || List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
                    "MASTER_ADDR", "MASTER_PORT").contains(k));
            Process p = pb.start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError(args + " ran over 10 minutes");
            }
            List<String> dashed;
            try (Stream<Path> s = Files.walk(dir)) {
                dashed = s.map(x -> x.getFileName().toString()).filter(n -> n.equals("-") || n.startsWith("-."))
                        .toList();
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8), dashed);
        }
    }
}
