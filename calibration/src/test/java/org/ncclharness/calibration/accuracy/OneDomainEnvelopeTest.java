package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.accuracy.AccuracyReport.ModelScores;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * On one domain the accuracy report scores the algorithm envelope from the protocol envelope's fits instead of fitting
 * them again: the scores it takes (in-sample, leave-one-out, held-out splits) are the ones a refit gives, and it takes
 * them on every one-domain run where both are fitted.
 */
class OneDomainEnvelopeTest {

    /** Runs refitted to compare: each refit is the work the sharing saves, so a few, with leave-one-out scored. */
    private static final int RUNS = 3;

    @Test
    void theAlgorithmEnvelopeScoredFromTheEnvelopesFitsEqualsARefit() {
        HardwareFacts facts = HardwareFacts.bundled();
        int checked = 0;
        for (Dataset d : DatasetCatalog.bundled().all()) {
            if (d.metadata().multiDomain() || d.metadata().hasFlag("mixed-configurations") || checked == RUNS) {
                continue;
            }
            FitPoints points = FitPoints.from(d.sweep(), d.sweep().hardware().ranks());
            List<Candidate> candidates = Candidates.forDataset(d, points, facts);
            Optional<Candidate> envelope = applying(candidates, Candidates.ENVELOPE);
            Optional<Candidate> algorithms = applying(candidates, Candidates.ALGORITHMS);
            if (envelope.isEmpty() || algorithms.isEmpty()
                    || points.size() < Fitter.leaveOneOutMinimum(algorithms.get().estimator().freeParameters().size())) {
                continue;
            }
            OneDomainEnvelope shared = OneDomainEnvelope.of(candidates);
            assertThat(shared.scoring(algorithms.get())).as(d.id() + ": (f) takes (c)'s fits")
                    .isNotSameAs(algorithms.get().estimator());
            // as the report scores them: (c) first, keeping its fits, then (f) from them
            ModelScores e = AccuracyReport.score(envelope.get(), shared.scoring(envelope.get()), points,
                    Optional.empty());
            ModelScores taken = AccuracyReport.score(algorithms.get(), shared.scoring(algorithms.get()), points,
                    Optional.empty());
            ModelScores refit = AccuracyReport.score(algorithms.get(), algorithms.get().estimator(), points,
                    Optional.empty());
            assertThat(taken).as(d.id()).isEqualTo(refit);
            assertThat(taken.leaveOneOut()).as(d.id() + ": leave-one-out scored").isNotNull();
            assertThat(e).as(d.id() + ": (c) scored as with its own estimator")
                    .isEqualTo(AccuracyReport.score(envelope.get(), envelope.get().estimator(), points,
                            Optional.empty()));
            checked++;
        }
        assertThat(checked).as("one-domain runs compared").isEqualTo(RUNS);
    }

    @Test
    void aMultiDomainRunsAlgorithmEnvelopeIsFittedByItsOwnEstimator() {
        HardwareFacts facts = HardwareFacts.bundled();
        Dataset d = DatasetCatalog.bundled().all().stream().filter(x -> x.metadata().multiDomain()
                && !x.metadata().hasFlag("mixed-configurations")).findFirst().orElseThrow();
        FitPoints points = FitPoints.from(d.sweep(), d.sweep().hardware().ranks());
        List<Candidate> candidates = Candidates.forDataset(d, points, facts);
        OneDomainEnvelope shared = OneDomainEnvelope.of(candidates);
        for (Candidate c : candidates) {
            assertThat(shared.scoring(c)).as(d.id() + " " + c.model()).isSameAs(c.estimator());
        }
    }

    private static Optional<Candidate> applying(List<Candidate> candidates, String model) {
        return candidates.stream().filter(c -> c.model().equals(model) && c.estimator() != null).findFirst();
    }
}
