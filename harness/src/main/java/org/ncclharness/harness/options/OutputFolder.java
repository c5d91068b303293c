package org.ncclharness.harness.options;

import java.nio.file.Path;
import picocli.CommandLine;

/**
 * A folder a command writes several files into ({@code --report DIR}, {@code bringup -o DIR}, {@code datasets
 * import --out DIR}). Standard output holds one stream, not a folder: {@code -} is refused in one line (README,
 * "Conventions").
 */
public record OutputFolder(Path path) {

    public Path resolve(String name) {
        return path.resolve(name);
    }

    @Override
    public String toString() {
        return path.toString();
    }

    /** The one converter of every folder output option. */
    public static final class Converter implements CommandLine.ITypeConverter<OutputFolder> {
        @Override
        public OutputFolder convert(String value) {
            return new OutputFolder(OutputRule.notStdout(value, OutputRule.Refusal.FOLDER));
        }
    }
}
