package org.ncclharness.calibration.calibrate;

import java.util.List;

/**
 * The calibration of one or more datasets, in input order: what {@code calibrate} prints and writes as JSON
 * (docs/calibration.md, schema {@value #SCHEMA}).
 */
public record CalibrationReport(List<CalibrationEntry> entries) {

    public static final String SCHEMA = "nccl-harness/calibration/1";

    public CalibrationReport {
        entries = List.copyOf(entries);
    }
}
