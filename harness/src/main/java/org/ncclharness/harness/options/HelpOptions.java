package org.ncclharness.harness.options;

import picocli.CommandLine.Option;

/**
 * {@code -h/--help} and {@code --version} for every subcommand. picocli's standard pair would add {@code -V}
 * too, a letter nccl-tests uses for something else (the device CTA count), so {@code -V} stays at the top level.
 */
public final class HelpOptions {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "Print the harness version and exit.")
    boolean version;
}
