package org.ncclharness.harness.options;

import org.ncclharness.calibration.format.OutputFile;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The one rule for {@code -} (README, "Conventions"): every output option that writes one text file takes {@code -}
 * for standard output ({@link OutputTarget}); a folder ({@link OutputFolder}) or a picture ({@link OutputImage})
 * does not, two outputs of one command never share standard output, and nothing is ever written to a file or folder
 * named {@code -}. Each refusal is one line and exit 2, before any work.
 */
public final class OutputRule {

    /** Why an output option refuses its argument. */
    enum Refusal {
        FOLDER("writes a folder of files, and standard output is one stream: name the folder", "out"),
        IMAGE("writes a picture (PNG or SVG bytes), which standard output is no place for: name the file",
                "figure.png"),
        NAMED_DASH("names a file or folder '-', which every command takes for standard output: choose"
                + " another name", null);

        private final String why;
        private final String example;

        Refusal(String why, String example) {
            this.why = why;
            this.example = example;
        }
    }

    /** A converter's refusal; {@link #line} turns it into the one line the user sees. */
    static final class Refused extends CommandLine.TypeConversionException {
        private static final long serialVersionUID = 1L;
        private final Refusal refusal;
        private final String value;

        Refused(Refusal refusal, String value) {
            super(value + " " + refusal.why);
            this.refusal = refusal;
            this.value = value;
        }
    }

    private OutputRule() {
    }

    /** The path an output option names; a file or folder named {@code -} (as in {@code out/-}) is refused. */
    static Path path(String value) {
        Path p;
        try {
            p = Path.of(value);
        } catch (InvalidPathException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a file name (" + e.getReason()
                    + ")");
        }
        if (p.getFileName() != null && p.getFileName().toString().equals(OutputTarget.STDOUT)) {
            throw new Refused(Refusal.NAMED_DASH, value);
        }
        return p;
    }

    /** The path of an output that cannot go to standard output; {@code -} is refused, saying why. */
    static Path notStdout(String value, Refusal why) {
        if (value.equals(OutputTarget.STDOUT)) {
            throw new Refused(why, value);
        }
        return path(value);
    }

    /**
     * The line for a refused argument, or empty when picocli's own message is the one to show: {@code --report -:
     * writes a folder of files, ...; name the folder (--report out)}.
     */
    public static Optional<String> line(CommandLine.ParameterException e) {
        if (!(e.getCause() instanceof Refused r) || !(e.getArgSpec() instanceof OptionSpec o)) {
            return Optional.empty();
        }
        String name = nameOf(o);
        return Optional.of(name + " " + r.value + ": " + r.refusal.why + (r.refusal.example == null ? ""
                : " (" + name + " " + r.refusal.example + ")"));
    }

    /**
     * The rules that take a whole command line, run before the command, for every command: one output on standard
     * output, one file per output, no output on an input.
     */
    public static void check(ParseResult parsed) {
        ParseResult last = parsed;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        ParseResult command = last;
        oneOnStdout(command);
        OutputPaths paths = OutputPaths.of(command);
        paths.refusal().ifPresent(message -> refuse(command, message));
        // outputs derived from another (a figure beside --markdown, a report's page) are checked where written
        OutputFile.protectInputs(paths.inputs().stream().map(OutputPaths.Named::real).toList());
    }

    /**
     * Refuses a command line on which two outputs take standard output ({@code convert --csv - --json -}): the
     * reader would get both interleaved.
     */
    private static void oneOnStdout(ParseResult last) {
        List<String> onStdout = last.matchedOptions().stream()
                .filter(o -> o.getValue() instanceof OutputTarget t && t.isStdout())
                .map(o -> nameOf(o) + " -").toList();
        if (onStdout.size() > 1) {
            refuse(last, String.join(" and ", onStdout) + " would both write to standard output, which holds"
                    + " one output: send all but one of them to a file");
        }
    }

    private static void refuse(ParseResult last, String message) {
        throw new CommandLine.ExecutionException(last.commandSpec().commandLine(), message,
                new HarnessException(ExitCode.USAGE, message));
    }

    /** The name an option is known by in messages: its first long name ({@code --json} of {@code -J/--json}). */
    public static String nameOf(ArgSpec spec) {
        if (!(spec instanceof OptionSpec o)) {
            return spec.paramLabel();
        }
        return Arrays.stream(o.names()).filter(n -> n.startsWith("--")).findFirst().orElse(o.longestName());
    }
}
