package org.ncclharness.harness.options;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.ncclharness.calibration.format.OutputFile;
import picocli.CommandLine;

/**
 * Where a one-file output goes: a file, or standard output for {@code -} (README, "Conventions"). Every output
 * option of every command that writes one text file has this type, made by its one {@link Converter}; folders
 * are {@link OutputFolder}, pictures {@link OutputImage}, which do not take {@code -}. A test finds every output
 * option by these types.
 */
public sealed interface OutputTarget {

    /** The argument that means standard output. */
    String STDOUT = "-";

    /** A file, written as {@link OutputFile} writes (a temporary file, then one move; --force to replace). */
    record ToFile(Path path) implements OutputTarget {
        @Override
        public String toString() {
            return path.toString();
        }
    }

    /** Standard output, written after every file of the command is in place. */
    record ToStdout() implements OutputTarget {
        @Override
        public String toString() {
            return STDOUT;
        }
    }

    /** {@code -} is standard output; anything else names a file. */
    static OutputTarget of(String argument) {
        return argument.equals(STDOUT) ? new ToStdout() : new ToFile(Path.of(argument));
    }

    default boolean isStdout() {
        return this instanceof ToStdout;
    }

    /** The file, empty for standard output. */
    default Optional<Path> file() {
        return this instanceof ToFile f ? Optional.of(f.path()) : Optional.empty();
    }

    /** Refuses before any work a file that would be refused at the end (exists without --force, no folder). */
    default void checkWritable(boolean force) {
        file().ifPresent(p -> OutputFile.checkWritable(p, force));
    }

    /**
     * Where a command prints its report and its "written to" lines: standard output, unless one of its outputs
     * takes it, when they go to standard error so that standard output holds that output alone.
     */
    static PrintStream reportStream(OutputTarget... outputs) {
        return Arrays.stream(outputs).anyMatch(o -> o != null && o.isStdout()) ? System.err : System.out;
    }

    /** The one converter of every text output option. */
    final class Converter implements CommandLine.ITypeConverter<OutputTarget> {
        @Override
        public OutputTarget convert(String value) {
            return value.equals(STDOUT) ? new ToStdout() : new ToFile(OutputRule.path(value));
        }
    }
}
