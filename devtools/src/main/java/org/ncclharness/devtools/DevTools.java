package org.ncclharness.devtools;

import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.devtools.fuzz.FuzzBench;
import org.ncclharness.devtools.twotier.TwoTierBenchCommand;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.VersionInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar devtools/target/devtools.jar COMMAND}: the tools that exist only to test the product (the log
 * reader's fuzzer, the two-tier fitter against the grid on a synthetic run). They live in their own module so
 * that nothing of them, and no synthetic-data generator, ships in harness.jar; the jar finds harness.jar beside
 * it in the build tree (its manifest's Class-Path).
 */
@Command(name = "devtools.jar",
        mixinStandardHelpOptions = true,
        versionProvider = VersionInfo.class,
        description = "Developer tools of nccl-harness: fuzzing and benchmarks on synthetic data. Not part of harness.jar.",
        subcommands = {FuzzBench.class, TwoTierBenchCommand.class})
public final class DevTools implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, its exit codes those of harness.jar (usage or input 2, internal 5); tests call this. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new DevTools());
        cl.getSubcommands().values().forEach(sub -> sub.getCommandSpec().versionProvider(new VersionInfo()));
        cl.getSubcommands().get("fuzz").getCommandSpec().usageMessage().footer(FuzzBench.kinds());
        cl.getCommandSpec().exitCodeOnInvalidInput(ExitCode.USAGE);
        cl.getCommandSpec().exitCodeOnExecutionException(ExitCode.INTERNAL);
        // a bad --grid-* range is an input error (one line, exit 2), as in harness.jar; anything else a defect
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (!(ex instanceof InputException)) {
                throw ex;
            }
            cmd.getErr().println(ex.getMessage());
            cmd.getErr().flush();
            return ExitCode.USAGE;
        });
        return cl;
    }
}
