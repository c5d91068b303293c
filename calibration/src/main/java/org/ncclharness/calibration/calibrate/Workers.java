package org.ncclharness.calibration.calibrate;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import org.ncclharness.calibration.measure.InputException;

/**
 * The threads a calibration runs on: a pool of {@link #count} workers, sized by default by the processors the JVM may
 * use. Datasets, two-tier entries and leave-one-out folds are independent, and every parallel step inside
 * {@link #run} gathers its results in input order, so the output is the same bytes with one worker and with many
 * (CalibrationWorkersTest holds it on every bundled run).
 *
 * <p>The count is a system property ({@value #PROPERTY}), not a command option: it changes no result, only how long
 * one takes, and it reaches every command that calibrates ({@code calibrate}, {@code sweep}, {@code accuracy},
 * {@code bench}) without each growing a flag: {@code java -Dharness.workers=1 -jar harness.jar calibrate}.
 *
 * @param count the workers, at least 1
 */
public record Workers(int count) {

    public static final String PROPERTY = "harness.workers";

    public Workers {
        if (count < 1) {
            throw new IllegalArgumentException("a calibration needs at least one worker, got " + count);
        }
    }

    /** {@value #PROPERTY} when set, else one worker per processor the JVM may use. */
    public static Workers fromSystem() {
        return of(System.getProperty(PROPERTY));
    }

    /** The count {@code v} says, one per processor when it is null or blank; anything else is a one-line error. */
    static Workers of(String v) {
        if (v == null || v.isBlank()) {
            return new Workers(Runtime.getRuntime().availableProcessors());
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return new Workers(n);
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error below
        }
        throw new InputException(PROPERTY, 0, "the system property takes a worker count of 1 or more, got '" + v
                + "'; leave it unset to use every processor");
    }

    /**
     * {@code work} on a pool of {@link #count} threads: the parallel streams it runs (datasets, entries, folds) fork
     * into this pool rather than the JVM's common one. An exception leaves as {@code work} threw it.
     */
    public <R> R run(Supplier<R> work) {
        ForkJoinPool pool = new ForkJoinPool(count);
        try {
            return pool.submit(work::get).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("calibration interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
