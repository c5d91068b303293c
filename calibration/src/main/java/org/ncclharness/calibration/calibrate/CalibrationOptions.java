package org.ncclharness.calibration.calibrate;

/**
 * What the user fixes instead of letting the data decide, and what the command needs scored.
 *
 * @param linkLatencyUs ℓ_link for method B, fixed instead of fitted (null: fitted per dataset)
 * @param topology      topology to use instead of the interconnect's own (null: the interconnect's)
 * @param scoring       whose out-of-sample scores are computed: every family's, or only the pick's contenders
 */
public record CalibrationOptions(Double linkLatencyUs, String topology, Scoring scoring) {

    public static CalibrationOptions defaults() {
        return new CalibrationOptions(null, null, Scoring.EVERY_FAMILY);
    }
}
