package org.ncclharness.devtools.fuzz;

import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ncclharness.harness.exit.ExitCode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code devtools.jar fuzz}: damages or disguises random tables in every layout the log reader knows, 28 ways, and
 * the project's CSV and JSON of random tables, and counts how each case came out: parsed exactly, refused cleanly
 * (naming the damaged line or row, no Java type in the message), or a defect; then runs random command lines
 * through harness.jar's entry point. Exit 1 when any case or line is a defect.
 */
@Command(name = "fuzz",
        description = {"Fuzz the readers: random tables as logs in every layout, CSV and JSON, damaged or disguised"
                + " (the kinds are listed below), each judged: the rows read must equal the rows the text still"
                + " holds, else the refusal (exit 2) must name the damaged line or row and no Java type; anything"
                + " else is a defect. Then random command lines of the commands that read files: any uncaught"
                + " error, exit code outside 0-3 or Java type name on stderr is a defect. Exits 1 on any defect."})
public final class FuzzBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Spec
    CommandSpec spec;

    @Option(names = "--cases", paramLabel = "N", description = "cases to run, spread evenly over the kinds "
            + "(default ${DEFAULT-VALUE})")
    int cases = 100_000;

    @Option(names = "--command-lines", paramLabel = "N", description = "random command lines to run after the"
            + " cases (default ${DEFAULT-VALUE})")
    int commandLines = 1_000;

    @Option(names = "--seed", paramLabel = "S", description = "random seed; the same seed and count give the "
            + "same cases (default ${DEFAULT-VALUE})")
    long seed = 1;

    /** The kinds, for the help footer: the lists live in {@link Mutation} and {@link DocumentMutation} alone. */
    public static String kinds() {
        StringBuilder b = new StringBuilder("%nThe kinds:%n");
        for (Mutation m : Mutation.values()) {
            b.append(String.format(Locale.ROOT, "  %-21s %s (%s)%%n", m.name().toLowerCase(Locale.ROOT),
                    m.description().replace("%", "%%"), m.damages() ? "must be refused" : "must read exactly"));
        }
        for (DocumentMutation m : DocumentMutation.values()) {
            b.append(String.format(Locale.ROOT, "  %-21s %s (%s)%%n", m.name().toLowerCase(Locale.ROOT),
                    m.description().replace("%", "%%"), switch (m.damage()) {
                        case ROW -> "must be refused naming the row";
                        case WHOLE -> "must be refused";
                        case NONE -> "must read exactly";
                    }));
        }
        return b.toString();
    }

    @Override
    public Integer call() throws java.io.IOException {
        if (cases < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cases must be at least 1, got " + cases);
        }
        if (commandLines < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--command-lines must be at least 0, got "
                    + commandLines);
        }
        long start = System.nanoTime();
        FuzzRun run = FuzzRun.of(seed, cases);
        double seconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "# fuzz: %d cases, seed %d, %.1f s%n", cases, seed, seconds);
        out.printf("%-21s %8s %8s %8s%n", "# kind", "exact", "refused", "defect");
        for (String kind : FuzzRun.kinds()) {
            var c = run.counts().get(kind);
            out.printf("%-21s %8d %8d %8d%n", kind.toLowerCase(Locale.ROOT),
                    c.getOrDefault(FuzzOracle.Verdict.PARSED_EXACTLY, 0), c.getOrDefault(FuzzOracle.Verdict.CLEAN_REFUSAL, 0),
                    c.getOrDefault(FuzzOracle.Verdict.DEFECT, 0));
        }
        int defects = run.total(FuzzOracle.Verdict.DEFECT);
        out.printf("%-21s %8d %8d %8d%n", "total", run.total(FuzzOracle.Verdict.PARSED_EXACTLY),
                run.total(FuzzOracle.Verdict.CLEAN_REFUSAL), defects);
        out.printf("defects: %d, of which silent drops: %d%n", defects, run.silent());
        run.defects().forEach(d -> out.println("  " + d.kind().toLowerCase(Locale.ROOT) + ": " + d.detail()));
        out.flush();
        long cliStart = System.nanoTime();
        CommandLineFuzz cli = CommandLineFuzz.run(seed, commandLines);
        out.printf(Locale.ROOT, "# command lines: %d, seed %d, %.1f s; exit codes %s%n", cli.lines(), seed,
                (System.nanoTime() - cliStart) / 1e9, cli.exitCodes());
        out.printf("command-line defects (uncaught errors, exit codes outside 0-3, Java names on stderr): %d%n",
                cli.count());
        cli.defects().forEach(d -> out.println("  " + d));
        out.flush();
        return defects == 0 && cli.count() == 0 ? ExitCode.OK : ExitCode.FAIL;
    }
}
