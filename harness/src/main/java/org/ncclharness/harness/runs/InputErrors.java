package org.ncclharness.harness.runs;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.ncclharness.calibration.measure.InputException;

/**
 * Several inputs that could not be read, found in one pass so that a folder of logs names all its bad files at once: a
 * heading line, then each input's own one-line message on a line of its own. Exit code 2 (README, "Exit codes").
 */
public final class InputErrors extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final List<String> lines;

    private InputErrors(int inputs, List<String> errors) {
        super(ExitCode.USAGE, errors.size() + " of the " + inputs + " inputs could not be used (each line says why and what to pass); nothing was written:");
        this.lines = List.copyOf(errors);
    }

    /**
     * Reads every input before raising any error: one bad input raises its own exception, several raise one
     * {@code InputErrors} naming them all.
     *
     * @return what {@code read} made of each input, in order
     */
    public static <T, R> List<R> readEach(List<T> inputs, Function<T, R> read) {
        List<R> out = new ArrayList<>(inputs.size());
        List<RuntimeException> bad = new ArrayList<>();
        for (T input : inputs) {
            try {
                out.add(read.apply(input));
            } catch (InputException | UncheckedIOException e) {
                bad.add(e);
            }
        }
        if (bad.size() == 1) {
            throw bad.get(0);
        }
        if (!bad.isEmpty()) {
            throw new InputErrors(inputs.size(), bad.stream().map(RuntimeException::getMessage).toList());
        }
        return out;
    }

    /** The heading, then one line per bad input. */
    public List<String> lines() {
        return Stream.concat(Stream.of(getMessage()), lines.stream()).toList();
    }
}
