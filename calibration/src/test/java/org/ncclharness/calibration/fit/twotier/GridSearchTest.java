package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierParams;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GridSearchTest {

    private static final List<TwoTierConfig> CONFIGS = List.of(new TwoTierConfig(1, 8), new TwoTierConfig(2, 8),
            new TwoTierConfig(4, 4), new TwoTierConfig(8, 2));

    @Test
    void findsTheTrueParametersWhenTheyAreOnTheGridAndTheDataSeparateThem() {
        ParamRanges box = new ParamRanges(new ParamRange(0.5, 1.0, 6), new ParamRange(200, 400, 6),
                new ParamRange(0, 1.5, 6), new ParamRange(0, 5, 6), new ParamRange(0, 15, 6));
        TwoTierParams truth = new TwoTierParams(0.8, 360, 0.9, 4.0, 12.0);
        for (TwoTierForm form : TwoTierForm.values()) {
            TwoTierProblem p = TwoTierTestData.joint(form, CONFIGS, truth, 0);
            GridResult g = GridSearch.run(p, form, box, 2, GridProgress.NONE);
            assertThat(g.best()).isEqualTo(truth);
            assertThat(g.rmspePct()).isLessThan(1e-9);
            assertThat(g.combinations()).isEqualTo(6L * 6 * 6 * 6 * 6);
            assertThat(g.pointEvaluations()).isEqualTo(g.combinations() * p.points());
        }
    }

    @Test
    void scoresEveryCombinationAsTheModelDoes() {
        // Reference: score every combination through TwoTierModel, the slow and obvious way.
        TwoTierProblem p = TwoTierTestData.joint(TwoTierForm.FLAT_RING, CONFIGS, TwoTierTestData.TRUTH, 0.01);
        ParamRanges box = TwoTierTestData.box(4);
        for (TwoTierForm form : TwoTierForm.values()) {
            double best = Double.POSITIVE_INFINITY;
            long bestIndex = -1;
            long index = 0;
            for (double u : box.uNv().values()) {
                for (double b : box.betaIbGBps().values()) {
                    for (double a : box.ellNvUs().values()) {
                        for (double c : box.ellIbUs().values()) {
                            for (double t : box.tSwUs().values()) {
                                double s = p.rmspe(form, new TwoTierParams(u, b, a, c, t)).overallPct().getAsDouble();
                                if (s < best) {
                                    best = s;
                                    bestIndex = index;
                                }
                                index++;
                            }
                        }
                    }
                }
            }
            GridResult g = GridSearch.run(p, form, box, 2, GridProgress.NONE);
            assertThat(g.bestIndex()).isEqualTo(bestIndex);
            assertThat(g.rmspePct()).isEqualTo(best);
        }
    }

    @Test
    void theAnswerIsTheSameToTheLastDigitOnAnyNumberOfThreads() {
        // One configuration: a flat valley with many near-ties, the case where a careless reduction differs.
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, new TwoTierConfig(2, 8),
                TwoTierTestData.TRUTH, 0.003, 7);
        ParamRanges box = TwoTierTestData.box(7);
        GridResult one = GridSearch.run(p, TwoTierForm.HIERARCHICAL, box, 1, GridProgress.NONE);
        for (int threads : new int[] {2, 3, 8}) {
            GridResult many = GridSearch.run(p, TwoTierForm.HIERARCHICAL, box, threads, GridProgress.NONE);
            assertThat(many.bestIndex()).isEqualTo(one.bestIndex());
            assertThat(many.best()).isEqualTo(one.best());
            assertThat(Double.doubleToRawLongBits(many.rmspePct())).isEqualTo(Double.doubleToRawLongBits(one.rmspePct()));
        }
    }

    @Test
    void progressIsReportedUpToTheTotal() {
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, new TwoTierConfig(2, 8),
                TwoTierTestData.TRUTH, 0, 1);
        ParamRanges box = TwoTierTestData.box(5);
        AtomicLong last = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        GridSearch.run(p, TwoTierForm.HIERARCHICAL, box, 2, (done, total) -> {
            assertThat(total).isEqualTo(3125);
            last.accumulateAndGet(done, Math::max);
            calls.incrementAndGet();
        });
        assertThat(last.get()).isEqualTo(3125);
        assertThat(calls.get()).isEqualTo(25);
    }
}
