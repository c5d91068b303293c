package org.ncclharness.calibration.calibrate;

/**
 * What the user fixes instead of letting the data decide.
 *
 * @param linkLatencyUs ℓ_link for method B, fixed instead of fitted (null: fitted per dataset)
 * @param topology      topology to use instead of the interconnect's own (null: the interconnect's)
 */
public record CalibrationOptions(Double linkLatencyUs, String topology) {

    public static CalibrationOptions defaults() {
        return new CalibrationOptions(null, null);
    }
}
