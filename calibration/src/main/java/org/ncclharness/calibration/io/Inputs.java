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
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.CollectiveEvidence;
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
        return read(name, null);
    }

    /**
     * @param given the collective the user states ({@code --collective}) for tables the file does not name;
     *              null to decide from the rows
     */
    public static List<Sweep> read(String name, Collective given) {
        return parse(name, text(name), given);
    }

    public static List<Sweep> parse(String name, String text) {
        return parse(name, text, null);
    }

    public static List<Sweep> parse(String name, String text, Collective given) {
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (body.isBlank()) {
            throw new InputException(name, 0, "empty file; expected an nccl-tests log, a CSV or a JSON file");
        }
        if (SweepJson.looksLikeJson(body)) {
            return SweepJson.readAll(name, body).stream().map(SweepJson.Read::sweep).toList();
        }
        if (MeasurementCsv.looksLikeCsv(body.lines().findFirst().orElse(""))) {
            return csvSweeps(name, body, given);
        }
        return new NcclTestsLogReader(name, given).read(body.lines().toList());
    }

    /**
     * A CSV's tables as sweeps. A CSV of an earlier release names no collective: each table's is then decided
     * from its rows as for a log without its program name.
     */
    private static List<Sweep> csvSweeps(String name, String text, Collective given) {
        List<Sweep> out = new ArrayList<>();
        for (MeasurementCsv.Table t : MeasurementCsv.readTables(name, text)) {
            List<String> notes = new ArrayList<>();
            Collective c = t.collective();
            Hardware hw = Hardware.unknown();
            if (c == null) {
                CollectiveEvidence e = CollectiveEvidence.decide(given, null, t.rows(), true, true);
                c = e.collective();
                notes.add("the CSV has no collective column (an earlier release's)");
                notes.addAll(e.notes());
                hw = e.ranks() == null ? hw : hw.withRanks(e.ranks());
            }
            out.add(new Sweep(Provenance.stored(name), c, RunInfo.unknown(), hw, List.of(), t.rows(), notes));
        }
        if (out.isEmpty()) {
            throw new InputException(name, 1, "the CSV has a header and no rows");
        }
        return out;
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
