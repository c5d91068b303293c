package org.ncclharness.harness.cli;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.harness.options.HelpOptions;
import picocli.CommandLine.Mixin;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code help [COMMAND [SUBCOMMAND]]}: the same text as {@code COMMAND SUBCOMMAND --help}. picocli's own help
 * command stops at the first name, so {@code help datasets show} would print the help of {@code datasets}.
 */
@Command(name = "help", addMethodSubcommands = false, helpCommand = true,
        description = "Print the help of a command or subcommand, as COMMAND --help does: help datasets show")
public final class HelpCommand implements Callable<Integer> {

    @Mixin
    HelpOptions helpOptions;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "the command, then its subcommand")
    List<String> path = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine at = spec.commandLine().getParent();
        List<String> walked = new ArrayList<>();
        for (String name : path) {
            CommandLine next = at.getSubcommands().get(name);
            if (next == null) {
                throw new HarnessException(ExitCode.USAGE, "no command '" + String.join(" ", walked)
                        + (walked.isEmpty() ? "" : " ") + name + "'; the commands" + (walked.isEmpty() ? "" : " of "
                        + String.join(" ", walked)) + ": " + String.join(", ", at.getSubcommands().keySet()));
            }
            walked.add(name);
            at = next;
        }
        at.usage(spec.commandLine().getOut());
        return ExitCode.OK;
    }
}
