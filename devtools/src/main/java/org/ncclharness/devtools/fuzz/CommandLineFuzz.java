package org.ncclharness.devtools.fuzz;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.format.SweepJson;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.cli.Main;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Random command lines through harness.jar's own entry point ({@link Main#execute}), in this JVM: the commands that
 * read files (a sweep or a bring-up would start GPU work), each with random options drawn from its own picocli
 * spec, random values (numbers, sizes, words, paths that exist or not, damaged files) and random inputs. A line is a
 * defect when it ends in an uncaught error, an exit code outside the contract (0, 1, 2, 3) or a Java type name on
 * stderr. Every path it writes is under one temporary folder.
 *
 * @param lines     command lines run
 * @param exitCodes how many ended with each exit code
 * @param defects   the first defects, for a report
 * @param count     how many lines were defects
 */
public record CommandLineFuzz(int lines, Map<Integer, Integer> exitCodes, List<String> defects, int count) {

    private static final List<String> COMMANDS = List.of("convert", "check", "diagnose", "calibrate", "predict",
            "datasets");
    private static final List<String> WORDS = List.of("0", "-1", "1", "8", "64", "1e400", "nan", "2G", "1K", "9999999999",
            "all_reduce", "ring", "tree", "nvlink", "ib", "h100", "float", "sum", "", " ", "--", "-", "x,y", "\u00fc");

    /** Each command's options but --help and --version, from its picocli spec. */
    private static final Map<String, List<OptionSpec>> OPTIONS = new TreeMap<>();

    static {
        var subcommands = Main.commandLine().getSubcommands();
        for (String c : COMMANDS) {
            CommandSpec spec = subcommands.get(c).getCommandSpec();
            OPTIONS.put(c, spec.options().stream().filter(o -> !o.usageHelp() && !o.versionHelp()).toList());
        }
    }

    /** Runs {@code n} lines from {@code seed}, their files in a fresh temporary folder removed afterwards. */
    public static CommandLineFuzz run(long seed, int n) throws IOException {
        Path dir = Files.createTempDirectory("fuzz-cli");
        try {
            return run(seed, n, dir);
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static CommandLineFuzz run(long seed, int n, Path dir) throws IOException {
        Random r = new Random(seed);
        List<String> inputs = inputs(dir, r);
        List<String> outputs = List.of(dir.resolve("out.csv").toString(), dir.resolve("out.json").toString(),
                dir.resolve("out.md").toString(), dir.resolve("no/such/dir/out.csv").toString(), dir.toString(), "-",
                inputs.get(0));
        Map<Integer, Integer> codes = new TreeMap<>();
        List<String> defects = new ArrayList<>();
        int count = 0;
        PrintStream out = System.out;
        PrintStream err = System.err;
        InputStream in = System.in;
        try {
            for (int i = 0; i < n; i++) {
                List<String> args = line(r, inputs, outputs);
                ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
                System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
                System.setIn(new ByteArrayInputStream(new byte[0]));
                String defect;
                int code = -1;
                try {
                    code = Main.execute(args.toArray(String[]::new));
                    String stderr = errBytes.toString(StandardCharsets.UTF_8);
                    defect = code < 0 || code > 3 ? "exit " + code + ": " + firstLine(stderr)
                            : DocumentOracle.JAVA_NAME.matcher(stderr).find() ? "a Java name on stderr: "
                            + firstLine(stderr) : null;
                } catch (RuntimeException | Error e) {
                    defect = "uncaught: " + e;
                }
                codes.merge(code, 1, Integer::sum);
                if (defect != null) {
                    count++;
                    if (defects.size() < 20) {
                        defects.add(String.join(" ", args) + " -> " + defect);
                    }
                }
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
            System.setIn(in);
        }
        return new CommandLineFuzz(n, codes, defects, count);
    }

    private static String firstLine(String s) {
        return s.lines().filter(l -> DocumentOracle.JAVA_NAME.matcher(l).find()).findFirst()
                .orElse(s.lines().findFirst().orElse(""));
    }

    /** A valid log, its CSV and JSON, damaged ones, a bundled dataset id, a missing path and a folder. */
    private static List<String> inputs(Path dir, Random r) throws IOException {
        FuzzTable t = FuzzTable.random(r);
        Sweep s = new Sweep(Provenance.stored("fuzz.txt"), Collective.ALL_REDUCE, RunInfo.unknown(),
                Hardware.unknown(), List.of(), t.rows(), List.of());
        Path log = Files.writeString(dir.resolve("run.log"), String.join("\n", t.lines()) + "\n");
        Path csv = Files.writeString(dir.resolve("run.csv"), MeasurementCsv.toString(List.of(s)));
        Path json = Files.writeString(dir.resolve("run.json"), SweepJson.writeAll(List.of(s)));
        Path badCsv = Files.writeString(dir.resolve("bad.csv"), DocumentMutation.CSV_DROP_FIELD.apply(t, r).text());
        Path badJson = Files.writeString(dir.resolve("bad.json"), DocumentMutation.JSON_TRUNCATED.apply(t, r).text());
        Mutation.Case damaged = Mutation.TYPE_TYPO.apply(t, r);
        Path badLog = Files.writeString(dir.resolve("bad.log"), damaged == null ? "x\n" : damaged.text());
        Path binary = Files.write(dir.resolve("binary.bin"), new byte[] {0, 1, 2, 3});
        // the bundled run with the fewest rows: a calibration of the largest takes a minute, not a fuzz case's time
        String dataset = DatasetCatalog.bundled().all().stream()
                .min(java.util.Comparator.comparingInt((org.ncclharness.calibration.datasets.Dataset d) -> d.rows().size())
                        .thenComparing(d -> d.metadata().id())).orElseThrow().metadata().id();
        return List.of(log.toString(), csv.toString(), json.toString(), badCsv.toString(), badJson.toString(),
                badLog.toString(), binary.toString(), dataset, dir.resolve("missing.log").toString(), dir.toString(),
                "-");
    }

    private static List<String> line(Random r, List<String> inputs, List<String> outputs) {
        List<String> args = new ArrayList<>();
        if (r.nextInt(20) == 0) {
            for (int i = 0, k = r.nextInt(4); i < k; i++) {
                args.add(pick(r, WORDS));
            }
            return args;
        }
        String command = pick(r, COMMANDS);
        args.add(command);
        List<OptionSpec> options = OPTIONS.get(command);
        List<List<String>> parts = new ArrayList<>();
        for (int i = 0, k = r.nextInt(4); i < k && !options.isEmpty(); i++) {
            OptionSpec o = options.get(r.nextInt(options.size()));
            List<String> part = new ArrayList<>(List.of(o.names()[r.nextInt(o.names().length)]));
            if (o.arity().max() > 0) {
                part.add(value(r, o, inputs, outputs));
            }
            parts.add(part);
        }
        // calibrate with no input calibrates every bundled run (minutes): it always gets one here
        for (int i = 0, k = r.nextInt(3) + (command.equals("calibrate") ? 1 : 0); i < k; i++) {
            parts.add(List.of(pick(r, inputs)));
        }
        Collections.shuffle(parts, r);
        parts.forEach(args::addAll);
        return args;
    }

    /** A value for an option: a path where it names a file (outputs under the folder), else a word or a number. */
    private static String value(Random r, OptionSpec o, List<String> inputs, List<String> outputs) {
        String type = o.type().getSimpleName();
        if (type.contains("Output") || type.equals("Path") || type.equals("File")) {
            return pick(r, r.nextBoolean() ? outputs : inputs);
        }
        List<String> candidates = new ArrayList<>();
        if (o.completionCandidates() != null) {
            o.completionCandidates().forEach(candidates::add);
        }
        return !candidates.isEmpty() && r.nextBoolean() ? pick(r, candidates) : pick(r, WORDS);
    }

    private static String pick(Random r, List<String> from) {
        return from.get(r.nextInt(from.size()));
    }
}
