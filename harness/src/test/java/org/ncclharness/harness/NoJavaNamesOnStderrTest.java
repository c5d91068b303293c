package org.ncclharness.harness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.harness.cli.Main;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.options.OutputFolder;
import org.ncclharness.harness.options.OutputImage;
import org.ncclharness.harness.options.OutputRule;
import org.ncclharness.harness.options.OutputTarget;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * README, "Exit codes": no message names a Java type or library. The error paths a user meets most, run as a user
 * runs them: a project JSON damaged in every field (each value replaced by a string, a number, an empty string, an
 * array, an object, null), read by check and convert; and every typed option of every command given a value it
 * cannot take. None prints anything on stderr that names Java, Jackson or picocli, and no damaged field is read as
 * a defect (exit 5).
 */
class NoJavaNamesOnStderrTest {

    private static final String DATASET = "h100_allreduce_8gpu_azure_ndv5";

    /** A type's or a library's name: a package path, an exception's or error's class, a Java type in backticks. */
    private static final Pattern JAVA = Pattern.compile("\\b(java|javax|jdk|sun)\\.[a-z]|com\\.fasterxml|picocli"
            + "|org\\.ncclharness|\\b[A-Z][A-Za-z]+(Exception|Error)\\b|`(int|long|double|boolean|float|short"
            + "|byte|char)`|java\\.lang|\\b(Integer|Long|Double|String)\\b value|\\$[A-Z]");

    @TempDir
    Path dir;

    @Test
    void aProjectJsonDamagedInAnyFieldIsRefusedWithoutAJavaName() throws IOException {
        JsonNode whole = undamaged();
        Map<String, String> leaks = new TreeMap<>();
        Map<String, String> defects = new TreeMap<>();
        int runs = 0;
        CommandLine reused = Main.commandLine();
        for (String path : paths(whole, "")) {
            for (JsonNode value : DAMAGE) {
                Path file = damaged(whole, path, value);
                for (String[] args : commands(file)) {
                    CliRun r = CliRun.on(reused, args);
                    runs++;
                    if (JAVA.matcher(r.err()).find()) {
                        leaks.put(args[0] + " " + path + " = " + value, r.err().strip());
                    }
                    if (r.exitCode() == ExitCode.INTERNAL) {
                        defects.put(args[0] + " " + path + " = " + value, r.err().strip());
                    }
                }
            }
        }
        assertThat(runs).isGreaterThan(500);
        assertThat(leaks).as("stderr that names Java").isEmpty();
        // a damaged field is bad input (exit 2, one line), never a defect of ours (a null provenance or an empty
        // finding once was)
        assertThat(defects).as("damaged fields read as a defect (exit 5)").isEmpty();
    }

    /**
     * The test above runs its thousand cases on one command line (CliRun.on): check and convert given only a file
     * keep nothing between runs but their options. Each damage after another, and the undamaged run after each,
     * prints the same bytes and exits the same as on a fresh command line.
     */
    @Test
    void aReusedCommandLineRunsAsAFreshOneAfterADamagedRun() throws IOException {
        JsonNode whole = undamaged();
        Path clean = Files.writeString(dir.resolve("clean.json"), JSON.writeValueAsString(whole));
        CommandLine reused = Main.commandLine();
        String path = "/results/0/size";
        for (JsonNode value : DAMAGE) {
            Path file = damaged(whole, path, value);
            for (String[] args : commands(file)) {
                assertThat(CliRun.on(reused, args)).as("%s after other runs", List.of(args))
                        .isEqualTo(CliRun.of(args));
            }
            for (String[] args : commands(clean)) {
                CliRun fresh = CliRun.of(args);
                assertThat(fresh.exitCode()).as(fresh.err()).isZero();
                assertThat(CliRun.on(reused, args)).as("%s after %s = %s", List.of(args), path, value)
                        .isEqualTo(fresh);
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each damage a field can take: a value of every JSON type, and the empty string. */
    private static final List<JsonNode> DAMAGE = List.of(JsonNodeFactory.instance.textNode("x"),
            JsonNodeFactory.instance.textNode(""), JsonNodeFactory.instance.numberNode(-7),
            JsonNodeFactory.instance.arrayNode(),
            JsonNodeFactory.instance.objectNode(), JsonNodeFactory.instance.nullNode(),
            JsonNodeFactory.instance.booleanNode(true));

    private static JsonNode undamaged() throws IOException {
        CliRun made = CliRun.of("convert", DATASET, "-J", "-");
        assertThat(made.exitCode()).as(made.err()).isZero();
        return JSON.readTree(made.out());
    }

    private Path damaged(JsonNode whole, String path, JsonNode value) throws IOException {
        JsonNode damaged = whole.deepCopy();
        replace(damaged, path, value);
        return Files.writeString(dir.resolve("run.json"), JSON.writeValueAsString(damaged));
    }

    private static List<String[]> commands(Path file) {
        return List.of(new String[] {"check", file.toString()},
                new String[] {"convert", file.toString(), "--csv", "-"});
    }

    @Test
    void everyTypedOptionGivenAValueItCannotTakeIsRefusedWithoutAJavaName() {
        Map<String, String> leaks = new TreeMap<>();
        List<String> tried = new ArrayList<>();
        for (CommandSpec spec : specs(Main.commandLine(), new ArrayList<>())) {
            String command = spec.qualifiedName(" ").substring(spec.root().name().length()).strip();
            for (OptionSpec o : spec.options()) {
                if (o.arity().max() < 1 || !typed(o.type())) {
                    continue;
                }
                List<String> args = new ArrayList<>(List.of(command.split(" ")));
                args.addAll(List.of(OutputRule.nameOf(o), "x!"));
                CliRun r = CliRun.of(args.toArray(String[]::new));
                tried.add(String.join(" ", args));
                assertThat(r.exitCode()).as("%s: %s", args, r.err()).isEqualTo(ExitCode.USAGE);
                if (JAVA.matcher(r.err()).find()) {
                    leaks.put(String.join(" ", args), r.err().strip());
                }
            }
        }
        assertThat(tried).as("typed options tried").hasSizeGreaterThan(30);
        assertThat(leaks).as("stderr that names Java").isEmpty();
    }

    /** A type whose parse refuses {@code x!} before any work: numbers, enums, the project's own converters. */
    private static boolean typed(Class<?> type) {
        return type != String.class && type != Path.class && type != java.io.File.class && type != boolean.class
                && type != Boolean.class && type != OutputTarget.class && type != OutputFolder.class
                && type != OutputImage.class && type != List.class;
    }

    private static List<CommandSpec> specs(CommandLine cl, List<CommandSpec> into) {
        if (!cl.getCommandName().equals("bench")) { // benches measure the machine; their options are the same kinds
            into.add(cl.getCommandSpec());
            cl.getSubcommands().forEach((name, sub) -> {
                if (name.equals(sub.getCommandName())) {
                    specs(sub, into);
                }
            });
        }
        return into;
    }

    /** Every field's path, with one element of each array standing for the rest. */
    private static List<String> paths(JsonNode node, String at) {
        List<String> out = new ArrayList<>();
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(f -> {
                out.add(at + "/" + f);
                out.addAll(paths(node.get(f), at + "/" + f));
            });
        } else if (node.isArray() && !node.isEmpty()) {
            out.add(at + "/0");
            out.addAll(paths(node.get(0), at + "/0"));
        }
        return out;
    }

    private static void replace(JsonNode root, String path, JsonNode value) {
        int cut = path.lastIndexOf('/');
        JsonNode parent = root.at(path.substring(0, cut));
        String last = path.substring(cut + 1);
        if (parent instanceof ObjectNode o) {
            o.set(last, value);
        } else if (parent instanceof ArrayNode a) {
            a.set(Integer.parseInt(last), value);
        }
    }
}
