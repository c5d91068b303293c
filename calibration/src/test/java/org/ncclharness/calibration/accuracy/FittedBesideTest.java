package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.calibrate.CalibrationInput;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.calibrate.TwoTierCalibrator;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * The accuracy report takes a multi-domain run's envelope and algorithm-envelope fits from calibrate's two-tier entry
 * instead of fitting them a second time: what it takes is the fit it would have made, and it takes it where it can.
 */
class FittedBesideTest {

    private static final int RUNS = 3;

    @Test
    void theFitTakenFromTheTwoTierEntryIsTheFitTheCandidateWouldMake() {
        HardwareFacts facts = HardwareFacts.bundled();
        List<Dataset> all = DatasetCatalog.bundled().all();
        List<CalibrationInput> inputs = all.stream().map(AccuracyReport::input).toList();
        TwoTierScores twoTier = new TwoTierScores(new TwoTierCalibrator(facts), inputs);
        int checked = 0;
        for (Dataset d : all) {
            if (!d.metadata().multiDomain() || d.metadata().hasFlag("mixed-configurations") || checked == RUNS) {
                continue;
            }
            FitPoints points = FitPoints.from(d.sweep(), d.sweep().hardware().ranks());
            TwoTierScores.Result two = twoTier.fit(AccuracyReport.input(d));
            int taken = 0;
            for (Candidate c : Candidates.forDataset(d, points, facts)) {
                if (c.estimator() == null) {
                    continue;
                }
                Optional<Fit> beside = AccuracyReport.fittedBeside(two, c, points);
                if (beside.isEmpty()) {
                    assertThat(c.model()).as(d.id()).isNotIn(Candidates.ENVELOPE, Candidates.ALGORITHMS);
                    continue;
                }
                Fit again = Fitter.fit(c.estimator(), points, List.of());
                assertThat(beside.get().theta()).as(d.id() + " " + c.model()).containsExactly(again.theta());
                assertThat(beside.get().inSample()).as(d.id() + " " + c.model()).isEqualTo(again.inSample());
                assertThat(beside.get().leaveOneOut()).as(d.id() + " " + c.model()).isEqualTo(again.leaveOneOut());
                assertThat(beside.get().leaveOneOutNote()).isEqualTo(again.leaveOneOutNote());
                taken++;
            }
            if (taken > 0) {
                assertThat(taken).as(d.id() + ": the envelope and the algorithm envelope").isEqualTo(2);
                checked++;
            }
        }
        assertThat(checked).as("multi-domain runs whose fits were taken").isEqualTo(RUNS);
    }
}
