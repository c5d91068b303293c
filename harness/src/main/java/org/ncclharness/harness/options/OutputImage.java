package org.ncclharness.harness.options;

import java.nio.file.Path;
import picocli.CommandLine;

/**
 * A picture a command writes (PNG or SVG: {@code plot --out}, {@code check --figure}). Pictures go to files only:
 * {@code -} is refused in one line (README, "Conventions"), as a terminal is no place for image bytes.
 */
public record OutputImage(Path path) {

    @Override
    public String toString() {
        return path.toString();
    }

    /** The one converter of every picture output option. */
    public static final class Converter implements CommandLine.ITypeConverter<OutputImage> {
        @Override
        public OutputImage convert(String value) {
            return new OutputImage(OutputRule.notStdout(value, OutputRule.Refusal.IMAGE));
        }
    }
}
