package org.ncclharness.harness;

import org.ncclharness.harness.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import picocli.CommandLine;

/** Runs the command line in-process and captures what it printed. */
public record CliRun(int exitCode, String out, String err) {

    public static synchronized CliRun of(String... args) {
        return withStdin("", args);
    }

    public static synchronized CliRun withStdin(String stdin, String... args) {
        return captured(stdin, () -> Main.execute(args));
    }

    /**
     * Runs args on {@code commandLine}, one {@link Main#commandLine()} reused across runs: about half of a short
     * run's time is picocli building that model. Only for commands that keep nothing between runs but their options
     * (see {@link Main#execute(CommandLine, String...)}).
     */
    public static synchronized CliRun on(CommandLine commandLine, String... args) {
        return captured("", () -> {
            // picocli keeps the writers it made over the first run's System.out and System.err: give it this run's
            commandLine.setOut(writer(System.out));
            commandLine.setErr(writer(System.err));
            return Main.execute(commandLine, args);
        });
    }

    private static PrintWriter writer(PrintStream stream) {
        return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
    }

    private static CliRun captured(String stdin, IntSupplier run) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        InputStream oldIn = System.in;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            int code = run.getAsInt();
            return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
            System.setIn(oldIn);
        }
    }
}
