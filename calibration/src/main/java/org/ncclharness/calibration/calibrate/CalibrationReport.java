package org.ncclharness.calibration.calibrate;

import java.util.List;

/**
 * The calibration of one or more datasets, in input order: what {@code calibrate} prints and writes as JSON
 * (docs/calibration.md, schema {@value #SCHEMA}).
 */
public record CalibrationReport(List<CalibrationEntry> entries) {

    /** Field names in nccl-tests' style ({@code bus_bw_gbps}; {@link org.ncclharness.calibration.format.JsonNames}). */
    public static final String SCHEMA = "nccl-harness/calibration/2";
    /** The first version, with the Java names of the values ({@code busBwGBps}): still read. */
    public static final String SCHEMA_V1 = "nccl-harness/calibration/1";

    public CalibrationReport {
        entries = List.copyOf(entries);
    }
}
