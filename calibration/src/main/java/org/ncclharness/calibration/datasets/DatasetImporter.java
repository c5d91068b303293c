package org.ncclharness.calibration.datasets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.format.MeasurementCsv;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Turns a raw dataset text into the project's CSV: the committed command that generates {@code datasets/<id>.csv}
 * (every number as published: nothing smoothed, interpolated or invented).
 */
public final class DatasetImporter {

    private DatasetImporter() {
    }

    /** The result of importing one raw file: its id and CSV text. */
    public record Imported(String id, String csv, int rows) { }

    public static Imported importRaw(Path raw) {
        List<String> lines;
        try {
            lines = Files.readAllLines(raw, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new InputException(raw.toString(), 0, "not UTF-8 text; expected a raw dataset text file");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + raw + ": " + e.getMessage(), e);
        }
        RawDataset ds = RawDataset.parse(raw.toString(), lines);
        var rows = ds.rows(raw.toString());
        // rows as published: a dataset, and its CSV says so on every row (the source URL is in datasets.json)
        Sweep sweep = new Sweep(new Provenance(SourceKind.DATASET, ds.id(), ds.id(), "dataset " + ds.id()),
                ds.collective(), RunInfo.unknown(), Hardware.unknown(), List.of(), rows, List.of());
        return new Imported(ds.id(), MeasurementCsv.toString(List.of(sweep)), rows.size());
    }
}
