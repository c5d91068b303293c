package org.ncclharness.harness.cli;

import org.ncclharness.harness.options.CliWording;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import org.ncclharness.calibration.format.OutputFile;
import org.ncclharness.harness.gpus.GpusCommand;
import org.ncclharness.harness.options.OutputRule;
import org.ncclharness.harness.options.VersionInfo;
import org.ncclharness.harness.runs.InputErrors;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.io.UncheckedIOException;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.OutputException;
import org.ncclharness.gpu.GpuEnvironmentException;
import org.ncclharness.gpu.GpuJobException;
import org.ncclharness.harness.accuracy.AccuracyCommand;
import org.ncclharness.harness.bench.BenchCommand;
import org.ncclharness.harness.check.CheckCommand;
import org.ncclharness.harness.calibrate.CalibrateCommand;
import org.ncclharness.harness.convert.ConvertCommand;
import org.ncclharness.harness.datasets.DatasetsCommand;
import org.ncclharness.harness.sweep.SweepCommand;
import org.ncclharness.harness.doctor.DoctorCommand;
import org.ncclharness.harness.plot.PlotCommand;
import org.ncclharness.harness.predict.PredictCommand;
import picocli.CommandLine;
import org.ncclharness.harness.bringup.BringupCommand;
import org.ncclharness.harness.diagnose.DiagnoseCommand;
import picocli.CommandLine.Command;

/** {@code java -jar harness.jar COMMAND ...}: the entry point, its subcommands and its exit-code mapping. */
@Command(name = "harness.jar", addMethodSubcommands = false,
        mixinStandardHelpOptions = true,
        versionProvider = VersionInfo.class,
        description = "Benchmark NCCL collectives the nccl-tests way and calibrate an alpha-beta cost model.",
        footer = "%n" + ExitCode.TABLE)
public final class Main implements Runnable {

    /**
     * The commands, in the order the help lists them: the order a bring-up goes (measure, judge, model, predict,
     * look), then the data and the machine. They are added to the command line as a run needs them (see
     * {@link #commandLine(List)}), not declared on the annotation, where picocli would build them all.
     */
    private static final List<Class<?>> COMMANDS = List.of(
            SweepCommand.class,
            CheckCommand.class,
            DiagnoseCommand.class,
            BringupCommand.class,
            CalibrateCommand.class,
            PredictCommand.class,
            PlotCommand.class,
            AccuracyCommand.class,
            DatasetsCommand.class,
            ConvertCommand.class,
            DoctorCommand.class,
            GpusCommand.class,
            BenchCommand.class,
            HelpCommand.class);

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.setOut(new StdoutStream());
        nameSignals();
        System.exit(execute(args));
    }

    /**
     * SIGTERM, SIGINT and SIGHUP end the process as Java's own handlers do (the shutdown hooks run, exit 128 + N),
     * having first named the signal for the line an interrupted write prints (README, "Outputs"). A signal the
     * process was started to ignore (nohup) stays ignored: the JVM does not install a handler over it.
     */
    private static void nameSignals() {
        for (String name : List.of("TERM", "INT", "HUP")) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), s -> {
                    OutputFile.interruptedBy("SIG" + s.getName());
                    System.exit(128 + s.getNumber());
                });
            } catch (IllegalArgumentException e) {
                // -Xrs, or a signal the JVM keeps for itself: Java's own handling stands
            }
        }
    }

    /**
     * Standard output that remembers why a write failed: a reader that went away ({@code | head}) is no news to
     * the user, a full disk is.
     */
    static final class StdoutStream extends PrintStream {
        private static final class Recording extends FilterOutputStream {
            volatile IOException failure;

            Recording() {
                super(new FileOutputStream(FileDescriptor.out));
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                try {
                    out.write(b, off, len);
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                    throw e;
                }
            }

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }
        }

        private final Recording recording;

        StdoutStream() {
            this(new Recording());
        }

        private StdoutStream(Recording r) {
            // autoflush: a sweep prints each row as it is measured, as nccl-tests does
            super(new BufferedOutputStream(r, 1 << 16), true, java.nio.charset.StandardCharsets.UTF_8);
            this.recording = r;
        }

        boolean readerWentAway() {
            IOException e = recording.failure;
            return e != null && e.getMessage() != null && e.getMessage().contains("Broken pipe");
        }
    }

    /**
     * Runs a command line and returns its exit code; tests call this instead of {@link #main}. Whatever goes
     * wrong ends in one line on stderr and a documented exit code: a Java {@code Error} too (exit 5, or 2 when
     * the input did not fit the heap), and a standard output that could not be written (exit 3). {@code --debug}
     * anywhere on the line adds the stack trace.
     */
    public static int execute(String... args) {
        List<String> line = new ArrayList<>(Arrays.asList(args));
        line.remove("--debug");
        return execute(commandLine(line), args);
    }

    /**
     * {@link #execute(String...)} on a command line from {@link #commandLine()} that may have run before: a test
     * that runs the same command a thousand times spares building picocli's model each time. picocli resets every
     * option and parameter to its default on each parse; a command's other fields (check's memo of its
     * --calibration file) are the caller's to keep out of such runs.
     */
    public static int execute(CommandLine commandLine, String... args) {
        // the calibration core's messages name this command line's flags, before any command runs
        CliWording.install();
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        boolean debug = rest.remove("--debug");
        DEBUG.set(debug);
        int code;
        try {
            code = commandLine.execute(rest.toArray(String[]::new));
        } catch (OutOfMemoryError e) {
            System.err.println("error: out of memory (" + e.getMessage() + "): the input is too large for this "
                    + "Java heap; raise it with java -Xmx…");
            trace(e);
            return ExitCode.USAGE;
        } catch (Error e) {
            System.err.println(INTERNAL);
            trace(e);
            return ExitCode.INTERNAL;
        }
        if (System.out.checkError()) {
            if (!(System.out instanceof StdoutStream s && s.readerWentAway())) {
                System.err.println("error: standard output could not be written (a full disk, or closed); the "
                        + "output is incomplete");
            }
            return ExitCode.ENVIRONMENT;
        }
        return code;
    }

    private static final ThreadLocal<Boolean> DEBUG = ThreadLocal.withInitial(() -> false);

    private static void trace(Throwable e) {
        if (DEBUG.get()) {
            e.printStackTrace();
        }
    }

    /** {@code COMMAND --version} prints the harness version, as the top level does. */
    private static void withVersion(CommandLine cl) {
        cl.getCommandSpec().versionProvider(new VersionInfo());
        cl.getSubcommands().values().forEach(Main::withVersion);
    }

    /** The command line with every command: what the help lists and what tests walk. */
    public static CommandLine commandLine() {
        return withCommands(COMMANDS);
    }

    /**
     * The command line that runs {@code args} (without {@code --debug}) as the whole one would. picocli builds the
     * model of every command it is given, reflecting over each one's options and mixins: for all of them that was
     * most of a short command's start. A line that starts with a command's name gets that command alone under the
     * top level, and {@code --version} alone none; anything else (no command, the top level's help, {@code help},
     * a name that is no command's) gets them all, for the listing and picocli's suggestions.
     */
    public static CommandLine commandLine(List<String> args) {
        if (args.equals(List.of("--version")) || args.equals(List.of("-V"))) {
            return withCommands(List.of());
        }
        if (!args.isEmpty()) {
            for (Class<?> c : COMMANDS) {
                Command command = c.getAnnotation(Command.class);
                if (!command.helpCommand() && (command.name().equals(args.get(0))
                        || Arrays.asList(command.aliases()).contains(args.get(0)))) {
                    return withCommands(List.of(c));
                }
            }
        }
        return commandLine();
    }

    private static CommandLine withCommands(List<Class<?>> commands) {
        CommandLine cl = new CommandLine(new Main());
        // added before the settings below, which picocli passes on to the subcommands there are at the time
        commands.forEach(cl::addSubcommand);
        withVersion(cl);
        cl.setExitCodeExceptionMapper(Main::exitCodeOf);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            // One line per message, whatever it holds (a library's multi-line text, a control character)
            List<String> lines = ex instanceof InputErrors e ? e.lines() : List.of(messageOf(ex));
            lines.forEach(l -> err.println(l.replaceAll("[\\r\\n]+", " ").replaceAll("\\p{Cntrl}", "?")));
            if (DEBUG.get()) {
                ex.printStackTrace(err);
            }
            err.flush();
            return exitCodeOf(ex);
        });
        // Bad flags: the one line that says what is wrong and where the options are, not the whole usage text.
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            java.util.Optional<String> refused = OutputRule.line(ex);
            if (refused.isPresent()) {
                // an output's argument it cannot take: the line says why and what to give instead
                err.println(refused.get());
                err.flush();
                return ExitCode.USAGE;
            }
            String suggestion = "";
            if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
                suggestion = "; did you mean " + String.join(" or ", u.getSuggestions().subList(0,
                        Math.min(3, u.getSuggestions().size()))) + "?";
            }
            err.println(message(ex) + suggestion);
            err.println("(see: java -jar harness.jar " + commandPath(ex.getCommandLine()) + "--help)");
            err.flush();
            return ExitCode.USAGE;
        });
        // two outputs on standard output or one file, or an output on an input, are refused before any command runs
        cl.setExecutionStrategy(parsed -> {
            if (!helpRequested(parsed)) {
                OutputRule.check(parsed);
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        cl.getCommandSpec().exitCodeOnInvalidInput(ExitCode.USAGE);
        cl.getCommandSpec().exitCodeOnExecutionException(ExitCode.USAGE);
        return cl;
    }

    private static boolean helpRequested(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.hasSubcommand() ? p.subcommand() : null) {
            if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) {
                return true;
            }
        }
        return false;
    }

    /**
     * picocli lists everything after an unknown option as unmatched, so {@code --bogus 3 run.txt} read "Unknown
     * options: '--bogus', 'run.txt'" and blamed the file; name only the arguments that look like options.
     */
    private static String message(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u)) {
            return ex.getMessage();
        }
        List<String> options = u.getUnmatched().stream().filter(a -> a.matches("-[^0-9.].*")).toList();
        CommandLine.Model.CommandSpec spec = u.getCommandLine().getCommandSpec();
        if (options.isEmpty() && spec.parent() != null && spec.subcommands().isEmpty()
                && spec.positionalParameters().isEmpty()) {
            // doctor run.log: a command about this machine given a file; say which ones read one
            return spec.name() + " takes no file or other argument (got '"
                    + String.join("', '", u.getUnmatched()) + "'); the commands that read a log are calibrate, check,"
                    + " convert, diagnose (NCCL INFO lines) and plot";
        }
        if (options.isEmpty()) {
            return ex.getMessage();
        }
        return (options.size() == 1 ? "Unknown option: " : "Unknown options: ")
                + "'" + String.join("', '", options) + "'";
    }

    /** "calibrate " for a subcommand, "" for the top level: what to put before --help. */
    private static String commandPath(CommandLine cmd) {
        String q = cmd.getCommandSpec().qualifiedName(" ");
        String top = cmd.getCommandSpec().root().name();
        return q.equals(top) ? "" : q.substring(top.length() + 1) + " ";
    }

    /**
     * A defect's line. It names no Java type (README, "Exit codes"): a library's class and message say nothing a
     * user can act on, and --debug prints both with the stack trace for the report.
     */
    static final String INTERNAL = "internal error: a defect of nccl-harness stopped the command (run it again with"
            + " --debug for the stack trace to report)";

    private static String messageOf(Throwable ex) {
        if (ex instanceof HarnessException || ex instanceof InputException) {
            return ex.getMessage();
        }
        if (ex instanceof GpuEnvironmentException || ex instanceof GpuJobException) {
            return "error: " + ex.getMessage();
        }
        if (ex instanceof UncheckedIOException || ex instanceof OutputException) {
            return "error: " + ex.getMessage();
        }
        return INTERNAL;
    }

    private static int exitCodeOf(Throwable ex) {
        if (ex instanceof HarnessException h) {
            return h.exitCode();
        }
        if (ex instanceof GpuEnvironmentException) {
            return ExitCode.ENVIRONMENT;
        }
        if (ex instanceof GpuJobException) {
            return ExitCode.JOB;
        }
        if (ex instanceof OutputException) {
            return ExitCode.ENVIRONMENT;
        }
        if (ex instanceof InputException || ex instanceof CommandLine.ParameterException
                || ex instanceof UncheckedIOException) {
            // an UncheckedIOException is a file that could not be read: the input the user named
            return ExitCode.USAGE;
        }
        return ExitCode.INTERNAL;
    }
}
