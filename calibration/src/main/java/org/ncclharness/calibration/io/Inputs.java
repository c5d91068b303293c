package org.ncclharness.calibration.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Reads whatever a user has on disk — an nccl-tests/rccl-tests log, the project's CSV, nccl-tests' or our
 * JSON — telling them apart by content, not by file name. {@code -} is standard input.
 */
public final class Inputs {

    private Inputs() {
    }

    /** The sweeps in a file (a log may hold several tables). */
    public static List<Sweep> read(String name) {
        return parse(name, text(name));
    }

    public static List<Sweep> parse(String name, String text) {
        if (text.isBlank()) {
            throw new InputException(name, 0, "empty file; expected an nccl-tests log, a CSV or a JSON file");
        }
        if (SweepJson.looksLikeJson(text)) {
            return List.of(SweepJson.read(name, text).sweep());
        }
        String first = text.lines().findFirst().orElse("");
        if (MeasurementCsv.looksLikeCsv(first)) {
            // The CSV's columns name no collective; say what is assumed rather than assume it silently.
            return List.of(new Sweep(Provenance.stored(name), Collective.ALL_REDUCE, RunInfo.unknown(),
                    Hardware.unknown(), List.of(), MeasurementCsv.read(name, text),
                    List.of("the CSV does not name its collective: read as all_reduce (its bus factor 2(N-1)/N)")));
        }
        return new NcclTestsLogReader(name, null).read(text.lines().toList());
    }

    /** The text of a file or stdin; binary content is refused with one line. */
    public static String text(String name) {
        byte[] bytes;
        try {
            if (name.equals("-")) {
                bytes = System.in.readAllBytes();
            } else {
                bytes = Files.readAllBytes(Path.of(name));
            }
        } catch (NoSuchFileException e) {
            throw new InputException(name, 0, "no such file");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
        }
        return decode(name, bytes);
    }

    public static String text(String name, InputStream in) throws IOException {
        return decode(name, in.readAllBytes());
    }

    private static String decode(String name, byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                throw new InputException(name, 0, "binary file; expected an nccl-tests log, a CSV or a JSON file");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InputException(name, 0, "not UTF-8 text; expected an nccl-tests log, a CSV or a JSON file");
        }
    }
}
