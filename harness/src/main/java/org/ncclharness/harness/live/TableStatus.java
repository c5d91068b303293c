package org.ncclharness.harness.live;

import java.util.Optional;
import java.util.stream.Stream;
import org.ncclharness.calibration.check.CheckRules;
import org.ncclharness.calibration.check.HealthCheck;
import org.ncclharness.calibration.format.CFormat;
import org.ncclharness.calibration.format.NcclTestsTableWriter;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * What nccl-tests itself fails a table on (README, "Exit codes"): results with #wrong above 0, and an average busbw
 * below 0.9 x NCCL_TESTS_MIN_BW. A replay is judged by neither: its numbers are another machine's stored
 * measurements, so passing or failing them would say nothing of this one (the rule {@code check} and
 * {@code bringup --replay} apply, {@link HealthCheck#notMeasured}). A table timed on a test clock loses only the gate
 * on time: its collectives ran here and the buffers NCCL wrote were checked as ever, so its #wrong fails the run as a
 * measured table's does. The gates not applied are reported as not judged.
 *
 * @param provenance      where the table's numbers came from
 * @param timesJudged     whether its times were measured on a system (not a replay, a prediction or a test clock):
 *                        only then does the busbw gate decide the exit code
 * @param dataJudged      whether its collectives ran in this run ({@link SourceKind#ranNow}): then #wrong does
 * @param minBusBwGBps    the gate (--min-busbw or NCCL_TESTS_MIN_BW), null when none is set
 * @param avgBusBwGBps    nccl-tests' average busbw of the table
 * @param wrongResults    the placements whose data check counted wrong elements
 */
record TableStatus(Provenance provenance, boolean timesJudged, boolean dataJudged, Double minBusBwGBps,
        double avgBusBwGBps, long wrongResults) {

    /** The trailer's status word of a table that is not judged, where nccl-tests prints OK or FAILED. */
    static final String NOT_JUDGED = "NOT-JUDGED";

    static TableStatus of(SweepPlan plan, Sweep s) {
        long wrong = s.rows().stream().flatMap(m -> Stream.of(m.outOfPlace(), m.inPlace()))
                .filter(Half::hasWrongElements).count();
        boolean times = HealthCheck.notMeasured(s).isEmpty();
        return new TableStatus(s.provenance(), times, times || s.provenance().kind().ranNow(), plan.minBusBwGBps(),
                NcclTestsTableWriter.averageBusBw(s.rows()), wrong);
    }

    /** The average is below 0.9 x the gate (false without one). */
    boolean belowMinBusBw() {
        return minBusBwGBps != null && avgBusBwGBps < CheckRules.NCCL_TESTS_MIN_BW_MARGIN * minBusBwGBps;
    }

    /** The table fails the run: below the gate with its times judged, or #wrong with its data judged. */
    boolean failed() {
        return (timesJudged && belowMinBusBw()) || (dataJudged && wrongResults > 0);
    }

    /** nccl-tests' word after the average: none without a gate (as nccl-tests), OK / FAILED, or {@link #NOT_JUDGED}. */
    String trailerWord() {
        return minBusBwGBps == null ? "" : !timesJudged ? NOT_JUDGED : belowMinBusBw() ? "FAILED" : "OK";
    }

    /** nccl-tests' JSON {@code average_bus_bandwidth.okay}: {@code unchecked} without a gate or when not judged. */
    String jsonOkay() {
        return minBusBwGBps == null || !timesJudged ? "unchecked" : belowMinBusBw() ? "false" : "true";
    }

    /**
     * Why gates the table would be judged by are not applied: a set busbw gate on times not measured here, #wrong
     * above 0 on a replay.
     */
    Optional<String> notJudged() {
        boolean gate = minBusBwGBps != null && !timesJudged;
        boolean wrong = wrongResults > 0 && !dataJudged;
        if (!gate && !wrong) {
            return Optional.empty();
        }
        String gates = (gate ? "--min-busbw / NCCL_TESTS_MIN_BW (average " + CFormat.g(avgBusBwGBps) + " GB/s, gate"
                + " 0.9 x " + CFormat.g(minBusBwGBps) + " GB/s)" : "") + (gate && wrong ? " and " : "")
                + (wrong ? "#wrong (" + wrongResults + " result" + (wrongResults == 1 ? "" : "s") + " above 0)" : "");
        if (dataJudged) {
            return Optional.of(gates + " not judged: this table's times were read from a test clock, not the GPU's"
                    + " (-Dnccl-harness.loop-clock-file), a stand-in's arithmetic; its #wrong is judged as a measured"
                    + " table's (the buffers NCCL wrote were checked), so only #wrong decides the exit");
        }
        return Optional.of(gates + " not judged: this table is a " + provenance.kind().label() + ", another"
                + " machine's stored measurements, not this one's (exit 0); measure on the GPU node to judge them"
                + " (sweep --no-replay)");
    }
}
