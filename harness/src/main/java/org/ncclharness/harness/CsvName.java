package org.ncclharness.harness;

import java.util.Locale;
import org.ncclharness.calibration.measure.SourceKind;

/**
 * The project's CSV has no column for where its rows came from, so a CSV of rows that were not measured (a replay,
 * a prediction) says so in its file name, or is not written: a CSV named like a measurement must hold one.
 */
public final class CsvName {

    private CsvName() {
    }

    /** Whether rows of this kind need their kind in the CSV's name. */
    public static boolean needsLabel(SourceKind kind) {
        return kind == SourceKind.REPLAY || kind == SourceKind.PREDICTED;
    }

    /** Whether a file name states the kind (case aside): {@code run.replay.csv}, {@code predicted-64gpu.csv}. */
    public static boolean states(String fileName, SourceKind kind) {
        return fileName.toLowerCase(Locale.ROOT).contains(stem(kind));
    }

    /** The name with the kind before its extension: {@code out.csv} → {@code out.replay.csv}. */
    public static String suggestion(String fileName, SourceKind kind) {
        int dot = fileName.lastIndexOf('.');
        return dot > 0 ? fileName.substring(0, dot) + "." + kind.label() + fileName.substring(dot)
                : fileName + "." + kind.label() + ".csv";
    }

    /** What the name must contain: "replay", or "predict" (so "prediction" and "predicted" both do). */
    private static String stem(SourceKind kind) {
        return kind == SourceKind.PREDICTED ? "predict" : kind.label();
    }
}
