package org.ncclharness.harness;

import org.ncclharness.harness.cli.Main;
import org.ncclharness.harness.exit.ExitCode;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** Every command and subcommand: {@code --help} and {@code help PATH} print the same text, and nothing is unexplained. */
class HelpWalkTest {

    /** Every command path below the top, e.g. [datasets, show]. */
    private static List<List<String>> paths(CommandLine at, List<String> prefix) {
        List<List<String>> all = new ArrayList<>();
        at.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().aliases().length > 0 && !name.equals(sub.getCommandName())) {
                return;
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(name);
            all.add(path);
            all.addAll(paths(sub, path));
        });
        return all;
    }

    @TestFactory
    Stream<DynamicTest> everyCommandsHelpExitsZeroAndDescribesEveryOption() {
        List<List<String>> paths = paths(Main.commandLine(), List.of());
        assertThat(paths).extracting(p -> String.join(" ", p))
                .contains("sweep", "check", "calibrate", "predict", "plot", "doctor", "datasets show", "bench calibrate");
        return paths.stream().map(path -> DynamicTest.dynamicTest(String.join(" ", path), () -> {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CliRun help = CliRun.of(args.toArray(String[]::new));
            assertThat(help.exitCode()).isZero();
            assertThat(help.err()).isEmpty();
            assertThat(help.out()).startsWith("Usage: harness.jar " + String.join(" ", path));
            List<String> viaHelp = new ArrayList<>(List.of("help"));
            viaHelp.addAll(path);
            assertThat(CliRun.of(viaHelp.toArray(String[]::new)).out()).isEqualTo(help.out());
            List<String> version = new ArrayList<>(path);
            version.add("--version");
            assertThat(CliRun.of(version.toArray(String[]::new)).out()).startsWith("nccl-harness ");
            // -V is nccl-tests' device CTA count; only the top level keeps picocli's meaning
            assertThat(walk(path).getCommandSpec().findOption("-V") == null || path.equals(List.of("sweep"))).isTrue();
            CommandLine cl = walk(path);
            for (OptionSpec o : cl.getCommandSpec().options()) {
                assertThat(String.join(" ", o.description())).as("%s %s", path, o.longestName()).isNotBlank()
                        .doesNotContainPattern(OutsideCitations.PATTERN.pattern()).doesNotContainPattern("issue \\d");
                // a negatable --x shows as --[no-]x
                assertThat(help.out()).as("%s %s", path, o.longestName())
                        .contains(o.negatable() ? o.longestName().substring(2) : o.longestName());
            }
            for (PositionalParamSpec p : cl.getCommandSpec().positionalParameters()) {
                assertThat(String.join(" ", p.description())).as("%s %s", path, p.paramLabel()).isNotBlank();
            }
            assertThat(String.join(" ", cl.getCommandSpec().usageMessage().description())).as("%s", path)
                    .isNotBlank().doesNotContainPattern(OutsideCitations.PATTERN.pattern())
                    .doesNotContainPattern("issue \\d");
        }));
    }

    private static CommandLine walk(List<String> path) {
        CommandLine at = Main.commandLine();
        for (String name : path) {
            at = at.getSubcommands().get(name);
        }
        return at;
    }

    @Test
    void helpOfAnUnknownCommandNamesTheOnesThereAre() {
        CliRun run = CliRun.of("help", "datasets", "shwo");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo("no command 'datasets shwo'; the commands of datasets: show, import");
    }
}
