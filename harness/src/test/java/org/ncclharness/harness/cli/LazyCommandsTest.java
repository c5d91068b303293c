package org.ncclharness.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ncclharness.harness.CliRun;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * A run builds the picocli model of the command it names alone: the same lines out, the same exit codes, as the
 * command line of every command gives (HelpWalkTest holds each path's --help to help PATH, which builds them all).
 */
class LazyCommandsTest {

    private static final List<String> ALL = new ArrayList<>(Main.commandLine().getSubcommands().keySet());

    @Test
    void aLineThatNamesACommandGetsThatCommandAloneAndItsSubcommands() {
        assertThat(ALL).hasSize(14).startsWith("sweep", "check").endsWith("help");
        for (String name : ALL) {
            CommandLine cl = Main.commandLine(List.of(name, "--help"));
            if (name.equals("help")) {
                assertThat(cl.getSubcommands().keySet()).as(name).containsExactlyElementsOf(ALL);
            } else {
                assertThat(cl.getSubcommands().keySet()).as(name).containsExactly(name);
            }
        }
        assertThat(Main.commandLine(List.of("datasets", "show", "x")).getSubcommands().get("datasets")
                .getSubcommands().keySet()).containsExactly("show", "import");
    }

    @Test
    void theVersionAloneGetsNoCommandAndEverythingElseGetsThemAll() {
        assertThat(Main.commandLine(List.of("--version")).getSubcommands()).isEmpty();
        assertThat(Main.commandLine(List.of("-V")).getSubcommands()).isEmpty();
        for (List<String> line : List.of(List.<String>of(), List.of("--help"), List.of("calibrat"),
                List.of("--version", "calibrate"), List.of("help", "calibrate"))) {
            assertThat(Main.commandLine(line).getSubcommands().keySet()).as("%s", line).containsExactlyElementsOf(ALL);
        }
    }

    /**
     * No command has method subcommands, so none has picocli scan its methods for them (a sixth of building every
     * command, as --help does): a command that wants them drops addMethodSubcommands = false.
     */
    @Test
    void everyCommandSparesPicocliTheScanForMethodSubcommands() {
        List<CommandLine> all = new ArrayList<>(List.of(Main.commandLine()));
        for (int i = 0; i < all.size(); i++) {
            all.addAll(all.get(i).getSubcommands().values());
        }
        assertThat(all).hasSizeGreaterThan(20);
        for (CommandLine cl : all) {
            Class<?> type = cl.getCommandSpec().userObject().getClass();
            assertThat(type.getAnnotation(Command.class).addMethodSubcommands()).as(type.getName()).isFalse();
            assertThat(type.getDeclaredMethods()).as(type.getName())
                    .noneMatch(m -> m.isAnnotationPresent(Command.class));
        }
    }

    @Test
    void eachCommandsBadFlagAndTheTopLevelsLinesAreTheSameAsWithEveryCommandBuilt() {
        List<String[]> lines = new ArrayList<>();
        ALL.forEach(name -> lines.add(new String[] {name, "--no-such-flag"}));
        lines.add(new String[] {"--version"});
        lines.add(new String[] {"--debug", "-V"});
        lines.add(new String[] {"calibrat"});
        lines.add(new String[] {});
        lines.add(new String[] {"datasets", "show"});
        lines.add(new String[] {"predict", "--interconnect", "NVLink"});
        for (String[] line : lines) {
            CliRun lazy = CliRun.of(line);
            CliRun full = CliRun.on(Main.commandLine(), line);
            assertThat(lazy).as(String.join(" ", line)).isEqualTo(full);
            assertThat(lazy.out() + lazy.err()).as(String.join(" ", line)).isNotBlank();
        }
    }
}
