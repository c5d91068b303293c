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
 * {@code devtools.jar fuzz}: damages or disguises random tables in every layout the reader knows, 28 ways, and counts
 * how each case came out: parsed exactly, refused cleanly (naming the damaged line), or a defect. Exit 1 when
 * any case is a defect.
 */
@Command(name = "fuzz",
        description = {"Fuzz the log reader: random tables in every layout, damaged or disguised 28 ways (listed "
                + "below), each judged: the rows read must equal the rows the text still holds, else the refusal "
                + "(exit 2) must name the damaged line; anything else is a defect. Exits 1 on any defect."})
public final class FuzzBench implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Spec
    CommandSpec spec;

    @Option(names = "--cases", paramLabel = "N", description = "cases to run, spread evenly over the kinds "
            + "(default ${DEFAULT-VALUE})")
    int cases = 100_000;

    @Option(names = "--seed", paramLabel = "S", description = "random seed; the same seed and count give the "
            + "same cases (default ${DEFAULT-VALUE})")
    long seed = 1;

    /** The 28 kinds, for the help footer: the list lives in {@link Mutation} alone. */
    public static String kinds() {
        StringBuilder b = new StringBuilder("%nThe kinds:%n");
        for (Mutation m : Mutation.values()) {
            b.append(String.format(Locale.ROOT, "  %-21s %s (%s)%%n", m.name().toLowerCase(Locale.ROOT),
                    m.description().replace("%", "%%"), m.damages() ? "must be refused" : "must read exactly"));
        }
        return b.toString();
    }

    @Override
    public Integer call() {
        if (cases < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cases must be at least 1, got " + cases);
        }
        long start = System.nanoTime();
        FuzzRun run = FuzzRun.of(seed, cases);
        double seconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "# fuzz: %d cases, seed %d, %.1f s%n", cases, seed, seconds);
        out.printf("%-21s %8s %8s %8s%n", "# kind", "exact", "refused", "defect");
        for (Mutation m : Mutation.values()) {
            var c = run.counts().get(m);
            out.printf("%-21s %8d %8d %8d%n", m.name().toLowerCase(Locale.ROOT),
                    c.getOrDefault(FuzzOracle.Verdict.PARSED_EXACTLY, 0), c.getOrDefault(FuzzOracle.Verdict.CLEAN_REFUSAL, 0),
                    c.getOrDefault(FuzzOracle.Verdict.DEFECT, 0));
        }
        int defects = run.total(FuzzOracle.Verdict.DEFECT);
        out.printf("%-21s %8d %8d %8d%n", "total", run.total(FuzzOracle.Verdict.PARSED_EXACTLY),
                run.total(FuzzOracle.Verdict.CLEAN_REFUSAL), defects);
        out.printf("defects: %d, of which silent drops: %d%n", defects, run.silent());
        run.defects().forEach(d -> out.println("  " + d.kind().name().toLowerCase(Locale.ROOT) + ": " + d.detail()));
        out.flush();
        return defects == 0 ? ExitCode.OK : ExitCode.FAIL;
    }
}
