package org.ncclharness.harness.options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.ParseResult;

/**
 * The files a command line names, as the file system sees them (README, "Outputs"): its outputs (every option of an
 * output type that names a file or folder) and its inputs (any other argument that names a file or folder that
 * exists). Two names of one file, through {@code ..}, a symbolic link or a second link, are one real path, so two
 * outputs never write one file and an output never replaces an input, with or without --force.
 *
 * @param outputs each output option's name and real path, in command-line order
 * @param inputs each input argument's name and real path
 */
record OutputPaths(List<Named> outputs, List<Named> inputs) {

    /** An argument and the real path of what it names. */
    record Named(String argument, String given, Path real) {
        String label() {
            return argument + " " + given;
        }
    }

    static OutputPaths of(ParseResult last) {
        List<Named> outputs = new ArrayList<>();
        List<Named> inputs = new ArrayList<>();
        List<ArgSpec> args = new ArrayList<>(last.matchedOptions());
        args.addAll(last.matchedPositionals());
        for (ArgSpec a : args) {
            Optional<Path> output = outputPath(a.getValue());
            if (output.isPresent()) {
                outputs.add(new Named(OutputRule.nameOf(a), output.get().toString(), real(output.get())));
                continue;
            }
            if (isOutputType(a)) {
                continue; // standard output
            }
            for (String value : a.originalStringValues()) {
                existing(value).ifPresent(p -> inputs.add(new Named(OutputRule.nameOf(a), value, real(p))));
            }
        }
        return new OutputPaths(List.copyOf(outputs), List.copyOf(inputs));
    }

    /** The one line that refuses this command line, or empty when every output has a file of its own. */
    Optional<String> refusal() {
        Map<Path, Named> seen = new LinkedHashMap<>();
        for (Named o : outputs) {
            Named before = seen.putIfAbsent(o.real(), o);
            if (before != null) {
                return Optional.of(before.label() + " and " + o.label() + " name the same file, and one output"
                        + " would replace the other: give each output a file of its own");
            }
        }
        for (Named o : outputs) {
            for (Named i : inputs) {
                if (o.real().equals(i.real())) {
                    return Optional.of(o.label() + " names the input " + i.given() + " (" + i.argument()
                            + "): an output never replaces an input, even with --force; choose"
                            + " another name");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isOutputType(ArgSpec a) {
        return a.type() == OutputTarget.class || a.type() == OutputFolder.class || a.type() == OutputImage.class;
    }

    private static Optional<Path> outputPath(Object value) {
        if (value instanceof OutputTarget t) {
            return t.file();
        }
        if (value instanceof OutputFolder f) {
            return Optional.of(f.path());
        }
        if (value instanceof OutputImage i) {
            return Optional.of(i.path());
        }
        return Optional.empty();
    }

    /** The path a value names when a file or folder is there; a number, a name or {@code -} names none. */
    private static Optional<Path> existing(String value) {
        try {
            Path p = Path.of(value);
            return value.isEmpty() || !Files.exists(p) ? Optional.empty() : Optional.of(p);
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    /**
     * Where a path leads: symbolic links followed and {@code .}/{@code ..} gone. A file not there yet is its
     * folder's real path and its name; a folder not there yet, the path made absolute.
     */
    static Path real(Path p) {
        try {
            if (Files.exists(p)) {
                return p.toRealPath();
            }
            Path abs = p.toAbsolutePath().normalize();
            Path parent = abs.getParent();
            return parent != null && Files.isDirectory(parent) ? parent.toRealPath().resolve(abs.getFileName()) : abs;
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
