package org.ncclharness.calibration.fit;

/**
 * Told as the fits of a calibration work, so a command can show progress on a large input: a calibrator
 * announces the leave-one-out refits its fits will make ({@link Fitter#refits}), and {@link Fitter} reports each
 * one done. Called from several threads at once.
 */
public interface FitProgress {

    /** Reports nothing. */
    FitProgress NONE = new FitProgress() {
        @Override
        public void started(int refits) {
        }

        @Override
        public void refitted() {
        }
    };

    /** {@code refits} more leave-one-out refits are coming. */
    void started(int refits);

    /** One refit is done. */
    void refitted();
}
