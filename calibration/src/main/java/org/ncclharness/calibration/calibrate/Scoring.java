package org.ncclharness.calibration.calibrate;

/**
 * Which families of a run get their out-of-sample score (leave-one-out, the costly part of a calibration: one refit
 * per point). The command decides: what it prints or stores decides what must be scored.
 */
public enum Scoring {
    /** Every family that has the points for it: what {@code --verbose}, {@code --json}, {@code --report} show. */
    EVERY_FAMILY,
    /**
     * Only the families that can still win the pick ({@link PickOnly}): the default summary shows the picked model
     * and its score alone. The pick and its score are those of {@link #EVERY_FAMILY}, bit for bit.
     */
    PICK_ONLY
}
