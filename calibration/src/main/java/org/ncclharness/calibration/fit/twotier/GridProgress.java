package org.ncclharness.calibration.fit.twotier;

/**
 * Told how far a grid search has got. Called from worker threads, often and concurrently, so an implementation
 * must be thread-safe and cheap; the calibration core draws nothing itself (the command line draws the bar).
 */
@FunctionalInterface
public interface GridProgress {

    /** Nothing is reported. */
    GridProgress NONE = (done, total) -> { };

    /**
     * @param doneCombinations  combinations scored so far (non-decreasing across calls)
     * @param totalCombinations combinations the search will score
     */
    void update(long doneCombinations, long totalCombinations);
}
