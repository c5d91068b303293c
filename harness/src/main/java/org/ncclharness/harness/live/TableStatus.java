package org.ncclharness.harness.live;

import java.util.Optional;
import java.util.stream.Stream;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.check.HealthCheck;
import org.ncclharness.calibration.format.CFormat;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.Sweep;

/**
 * What nccl-tests itself fails a table on (README, "Exit codes"): results with #wrong above 0, and an average busbw
 * below 0.9 x NCCL_TESTS_MIN_BW. A replay is not judged: its numbers are another machine's stored measurements, so
 * passing or failing them would say nothing of this one (the rule {@code check} and {@code bringup --replay} apply,
 * {@link HealthCheck#notMeasured}); its gates are reported as not judged.
 *
 * @param provenance      where the table's numbers came from
 * @param judged          whether they were measured on a system (not a replay, not a prediction): only then do the
 *                        gates decide the exit code
 * @param minBusBwGBps    the gate (--min-busbw or NCCL_TESTS_MIN_BW), null when none is set
 * @param avgBusBwGBps    nccl-tests' average busbw of the table
 * @param wrongResults    the placements whose data check counted wrong elements
 */
record TableStatus(Provenance provenance, boolean judged, Double minBusBwGBps, double avgBusBwGBps, long wrongResults) {

    /** The trailer's status word of a table that is not judged, where nccl-tests prints OK or FAILED. */
    static final String NOT_JUDGED = "NOT-JUDGED";

    static TableStatus of(SweepPlan plan, Sweep s) {
        long wrong = s.rows().stream().flatMap(m -> Stream.of(m.outOfPlace(), m.inPlace()))
                .filter(Half::hasWrongElements).count();
        return new TableStatus(s.provenance(), HealthCheck.notMeasured(s).isEmpty(), plan.minBusBwGBps(),
                NcclTestsTableWriter.averageBusBw(s.rows()), wrong);
    }

    /** The average is below 0.9 x the gate (false without one). */
    boolean belowMinBusBw() {
        return minBusBwGBps != null && avgBusBwGBps < CheckRules.NCCL_TESTS_MIN_BW_MARGIN * minBusBwGBps;
    }

    /** The table fails the run: judged, and below the gate or with #wrong. */
    boolean failed() {
        return judged && (belowMinBusBw() || wrongResults > 0);
    }

    /** nccl-tests' word after the average: none without a gate (as nccl-tests), OK / FAILED, or {@link #NOT_JUDGED}. */
    String trailerWord() {
        return minBusBwGBps == null ? "" : !judged ? NOT_JUDGED : belowMinBusBw() ? "FAILED" : "OK";
    }

    /** nccl-tests' JSON {@code average_bus_bandwidth.okay}: {@code unchecked} without a gate or when not judged. */
    String jsonOkay() {
        return minBusBwGBps == null || !judged ? "unchecked" : belowMinBusBw() ? "false" : "true";
    }

    /** Why the gates the table would be judged by are not applied: a replay with a gate set or with #wrong. */
    Optional<String> notJudged() {
        if (judged || (minBusBwGBps == null && wrongResults == 0)) {
            return Optional.empty();
        }
        String gates = (minBusBwGBps == null ? "" : "--min-busbw / NCCL_TESTS_MIN_BW (average "
                + CFormat.g(avgBusBwGBps) + " GB/s, gate 0.9 x " + CFormat.g(minBusBwGBps) + " GB/s)")
                + (minBusBwGBps != null && wrongResults > 0 ? " and " : "")
                + (wrongResults == 0 ? "" : "#wrong (" + wrongResults + " result" + (wrongResults == 1 ? "" : "s")
                + " above 0)");
        return Optional.of(gates + " not judged: this table is a " + provenance.kind().label() + ", another"
                + " machine's stored measurements, not this one's (exit 0); measure on the GPU node to judge them"
                + " (sweep --no-replay)");
    }
}
