package org.ncclharness.calibration.calibrate;

/**
 * One dataset's entry in a {@link CalibrationReport}: a single-tier calibration, a dataset deferred to another
 * fit (multi-domain runs await the two-tier fit, never silently fitted with one tier), and the kinds other fits
 * add (two-tier, joint). Writers dispatch on {@link #kind()}.
 */
public interface CalibrationEntry {

    DatasetInfo dataset();

    /** {@code single-tier}, {@code deferred}, ... : the entry's JSON {@code kind}. */
    String kind();
}
