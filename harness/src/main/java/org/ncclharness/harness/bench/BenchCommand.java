package org.ncclharness.harness.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code harness.jar bench ...}: benchmarks (speed claims are checked here, never by timed unit tests). */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run a benchmark and print its table.",
        subcommands = {TwoTierBenchCommand.class})
public final class BenchCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a benchmark: two-tier");
    }
}
