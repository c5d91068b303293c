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
 */
public record CheckReport(String run, Provenance provenance, Reference reference, List<SizeLine> sizes,
                          List<Finding> findings, Verdict verdict) {

    public CheckReport {
        sizes = List.copyOf(sizes);
        findings = List.copyOf(findings);
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
        return new CheckReport(run, provenance, reference, sizes, all, Verdict.of(all));
    }

    /** The findings that decide the verdict (WARN and FAIL). */
    public List<Finding> reasons() {
        return findings.stream().filter(f -> f.severity() != Severity.INFO).toList();
    }
}
