package org.ncclharness.calibration.calibrate;

/**
 * A dataset this calibration does not fit, and why: a multi-domain run awaiting the two-tier fit, rows mixed
 * from several configurations, too few usable points.
 *
 * @param awaiting what would calibrate it ({@code two-tier}), null when nothing in this tool can
 * @param reason   one line for the user
 */
public record DeferredCalibration(DatasetInfo dataset, String awaiting, String reason) implements CalibrationEntry {

    public static final String KIND = "deferred";
    public static final String TWO_TIER = "two-tier";

    @Override
    public String kind() {
        return KIND;
    }
}
