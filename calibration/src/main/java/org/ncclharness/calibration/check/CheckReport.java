package org.ncclharness.calibration.check;

import java.util.List;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.Severity;

/**
 * What {@code check} concluded about one run: per-size figures, the findings and the verdict.
 *
 * @param run        the run as the user named it (dataset id or file)
 * @param provenance where the run's numbers came from
 * @param reference  the baseline or model compared with, null when none was given
 * @param sizes      one line per size of the run
 * @param findings   in rule order; WARN and FAIL findings are the verdict's reasons
 * @param levels     the busbw levels the rules judged the largest size against, for a figure to draw
 */
public record CheckReport(String run, Provenance provenance, Reference reference, List<SizeLine> sizes,
                          List<Finding> findings, Verdict verdict, Levels levels) {

    public CheckReport {
        sizes = List.copyOf(sizes);
        findings = List.copyOf(findings);
        levels = levels == null ? Levels.NONE : levels;
    }

    /** A report whose rules judged against no busbw level. */
    public CheckReport(String run, Provenance provenance, Reference reference, List<SizeLine> sizes,
                       List<Finding> findings, Verdict verdict) {
        this(run, provenance, reference, sizes, findings, verdict, Levels.NONE);
    }

    /**
     * The busbw levels of the line-rate rules, as numbers (the findings say them in words).
     *
     * @param lineRateGBps   the line rate the busbw at the largest size was judged against ({@code peak}), null
     *                       where there was none
     * @param classFloorGBps the healthy floor of the run's hardware class in GB/s ({@code class-floor}), null where
     *                       the class has no range or the sweep did not reach its bandwidth-bound end
     * @param classKey       what the floor is of: the class or family the range was learned for, null without one
     */
    public record Levels(Double lineRateGBps, Double classFloorGBps, String classKey) {
        public static final Levels NONE = new Levels(null, null, null);
    }

    /**
     * One size of the run.
     *
     * @param referenceGBps  the reference's busbw at this size, null where it has none
     * @param pctOfReference run / reference × 100, null where there is no reference value
     * @param timeUs         the run's time at this size (the busbw's placement), null where not stated
     * @param referenceUs    the reference's time, null where it has none
     * @param latencyBound   judged on time: below the reference's latency/bandwidth crossover
     * @param dip            true when this size is a dip
     */
    public record SizeLine(long sizeBytes, Double busBwGBps, Double referenceGBps, Double pctOfReference,
                           Double timeUs, Double referenceUs, boolean latencyBound, boolean dip) { }

    /**
     * This report with more findings, the verdict decided again.
     *
     * @param first before the others (what the run was compared with)
     * @param last  after them (what the log's NCCL lines say)
     */
    public CheckReport withFindings(List<Finding> first, List<Finding> last) {
        List<Finding> all = new java.util.ArrayList<>(first);
        all.addAll(findings);
        all.addAll(last);
        return new CheckReport(run, provenance, reference, sizes, all, Verdict.of(all), levels);
    }

    /** The findings that decide the verdict (WARN and FAIL). */
    public List<Finding> reasons() {
        return findings.stream().filter(f -> f.severity() != Severity.INFO).toList();
    }
}
