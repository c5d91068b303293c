package org.ncclharness.calibration.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.fit.SingleTierEstimator.BetaChoice;
import org.ncclharness.calibration.fit.SingleTierEstimator.Choice;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.model.LatencyRule;
import org.ncclharness.calibration.model.SingleTierModel;

class SingleTierFitTest {

    private static final double ALPHA_US = 60.0;
    private static final double BETA_GBPS = 400.0;
    private static final double BETA_PHYS = 450.0;
    private static final long MAX = 256L << 20;

    private final Hardware hw = SyntheticSweeps.singleNode("NVIDIA H100", 8, "NVLink4");
    private final Sweep sweep = SyntheticSweeps.ring(Collective.ALL_REDUCE, hw, ALPHA_US, BETA_GBPS, 1024, MAX);
    private final SingleTierModel model = new SingleTierModel(Collective.ALL_REDUCE, 8, 2, LatencyRule.PIPELINE);

    /** Method B with β fitted too: ℓ_link and β from the data. */
    private SingleTierEstimator bPlusBeta() {
        return new SingleTierEstimator("B+beta", "", model, Choice.FITTED, 0, BetaChoice.FITTED, 0, BETA_PHYS, null);
    }

    @Test
    void jointFitRecoversAlphaAndBetaWithinOnePercentFromRoundedTimes() {
        FitPoints p = FitPoints.from(sweep, 8);
        SingleTierEstimator e = bPlusBeta();
        Fit fit = Fitter.fit(e, p, List.of());
        assertThat(model.alphaUs(fit.theta())).isCloseTo(ALPHA_US, within(0.01 * ALPHA_US));
        assertThat(fit.theta()[1]).isCloseTo(BETA_GBPS, within(0.01 * BETA_GBPS));
        assertThat(fit.leaveOneOut()).isNotNull();
        assertThat(fit.inSample().overallPct().getAsDouble()).isLessThan(0.5);
    }

    /** 2,000 sizes (an -i sweep): leave-one-out becomes 10-fold, says so, and costs 10 refits instead of 2,000. */
    @Test
    void aSweepOfManySizesIsScoredByTenFoldCrossValidationAndSaysSo() {
        Sweep many = SyntheticSweeps.ringAdditive(Collective.ALL_REDUCE, hw, ALPHA_US, BETA_GBPS, 1 << 20, 2000);
        FitPoints p = FitPoints.from(many, 8);
        SingleTierEstimator e = bPlusBeta();
        Fit fit = Fitter.fit(e, p, List.of());
        assertThat(fit.leaveOneOutNote())
                .isEqualTo("estimated by 10-fold cross-validation (2000 points, above 100): each point predicted by a"
                        + " fit without its fold (every 10th size)");
        assertThat(fit.theta()[1]).isCloseTo(BETA_GBPS, within(0.01 * BETA_GBPS));
        assertThat(fit.leaveOneOut().overallPct().getAsDouble())
                .isCloseTo(fit.inSample().overallPct().getAsDouble(), within(0.1));
        assertThat(Fitter.fit(e, FitPoints.from(sweep, 8), List.of()).leaveOneOutNote()).isNull();
    }

    /**
     * 20,000 sizes: each fold is fitted on an even ninth of its 18,000 training sizes (at most 2,000), the note
     * says so, and the estimate still agrees with the in-sample score of data the model fits exactly.
     */
    @Test
    void aFoldOfManyTrainingSizesIsFittedOnAnEvenSubsampleAndTheNoteSaysSo() {
        Sweep many = SyntheticSweeps.ringAdditive(Collective.ALL_REDUCE, hw, ALPHA_US, BETA_GBPS, 1 << 16, 20_000);
        FitPoints p = FitPoints.from(many, 8);
        SingleTierEstimator b = bPlusBeta();
        List<Integer> fitted = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        List<Double> smallest = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Estimator counting = new Estimator() {
            public String name() { return b.name(); }
            public String description() { return b.description(); }
            public org.ncclharness.calibration.model.CostModel model() { return b.model(); }
            public List<String> freeParameters() { return b.freeParameters(); }
            public double[] estimate(FitPoints points) {
                fitted.add(points.size());
                smallest.add(points.bytes()[0]);
                return b.estimate(points);
            }
        };
        Fit fit = Fitter.fit(counting, p, List.of());
        assertThat(fit.leaveOneOutNote()).endsWith("; each fold fitted on every 9th of its training sizes (about 2000"
                + " of 18000)");
        assertThat(fitted).hasSize(1 + Fitter.FOLDS).contains(20_000);
        assertThat(fitted.stream().filter(n -> n < 20_000)).hasSize(Fitter.FOLDS)
                .allSatisfy(n -> assertThat(n).isBetween(1990, Fitter.FOLD_TRAINING_MAX));
        // the subsample spans the sweep: every fold starts within its first ten sizes
        assertThat(smallest).allSatisfy(x -> assertThat(x).isLessThanOrEqualTo(p.bytes()[10]));
        assertThat(fit.leaveOneOut().overallPct().getAsDouble())
                .isCloseTo(fit.inSample().overallPct().getAsDouble(), within(0.1));
    }

    @Test
    void theSeedUtilisationIsBiasedExactlyAsTheFormulaPredicts() {
        FitPoints p = FitPoints.from(sweep, 8);
        SeedUtilisation seed = SeedUtilisation.of(p, BETA_PHYS, null);
        double f = Collective.ALL_REDUCE.busFactor(8);
        double expected = SeedUtilisation.expectedBias(ALPHA_US, BETA_GBPS, f, MAX, BETA_PHYS);
        // busbw is printed with two decimals: that is all the difference allowed.
        assertThat(seed.measuredUr()).isCloseTo(expected, within(0.005 / BETA_PHYS));
        // and the bias is real: at 256 MiB α costs about 5 % of the time.
        assertThat(seed.measuredUr()).isLessThan(0.96 * BETA_GBPS / BETA_PHYS);
        assertThat(seed.aboveLineRate()).isFalse();
    }

    @Test
    void methodBFitsLinkLatencyOnRelativeError() {
        FitPoints p = FitPoints.from(sweep, 8);
        SingleTierEstimator e = new SingleTierEstimator("B", "", model, Choice.FITTED, 0, BetaChoice.FIXED,
                BETA_GBPS, BETA_PHYS, null);
        Fit fit = Fitter.fit(e, p, List.of());
        assertThat(model.alphaUs(fit.theta())).isCloseTo(ALPHA_US, within(0.01 * ALPHA_US));
        assertThat(fit.freeParameters()).containsExactly("linkLatencyUs");
    }

    @Test
    void busBwOnlySweepsDeriveTheirTimesAndSaySo() {
        Sweep b = SyntheticSweeps.busBwOnly(sweep);
        FitPoints p = FitPoints.from(b, 8);
        assertThat(p.timeDerived()).isTrue();
        assertThat(p.placement().label()).isEqualTo("in-place");
        assertThat(Note.texts(p.notes())).anyMatch(s -> s.contains("derived from busbw"))
                .anyMatch(s -> s.contains("in-place half"));
        // The largest size: busbw printed to 0.01 GB/s of about 380, so the derived time is within 0.01 %.
        double t = ALPHA_US + Collective.ALL_REDUCE.busFactor(8) * MAX / (BETA_GBPS * 1e3);
        assertThat(p.timeUs()[p.largest()]).isCloseTo(t, within(1e-4 * t));
    }

    @Test
    void leaveOneOutNeedsThreeKPlusThreePoints() {
        Sweep small = SyntheticSweeps.ring(Collective.ALL_REDUCE, hw, ALPHA_US, BETA_GBPS, 1 << 20, 128L << 20);
        FitPoints p = FitPoints.from(small, 8);
        assertThat(p.size()).isEqualTo(8);
        SingleTierEstimator e = bPlusBeta();
        Fit fit = Fitter.fit(e, p, List.of());
        assertThat(fit.leaveOneOut()).isNull();
        assertThat(fit.leaveOneOutNote()).contains("at least 9 points").contains("has 8");
    }

    @Property(tries = 40)
    void anyRingRecoversItsAlphaAndBetaAndTheSeedShowsItsPredictedBias(
            @ForAll @DoubleRange(min = 5, max = 200) double alpha,
            @ForAll @DoubleRange(min = 5, max = 900) double beta,
            @ForAll @IntRange(min = 2, max = 72) int ranks) {
        Hardware h = SyntheticSweeps.singleNode("GPU", ranks, "NVLink5");
        long max = 1L << 30;
        FitPoints p = FitPoints.from(SyntheticSweeps.ring(Collective.ALL_REDUCE, h, alpha, beta, 1024, max), ranks);
        SingleTierModel m = new SingleTierModel(Collective.ALL_REDUCE, ranks, 2, LatencyRule.PIPELINE);
        SingleTierEstimator e = new SingleTierEstimator("B+beta", "", m, Choice.FITTED, 0, BetaChoice.FITTED, 0,
                900.0, null);
        double[] theta = e.estimate(p);
        assertThat(m.alphaUs(theta)).isCloseTo(alpha, within(0.01 * alpha));
        assertThat(theta[1]).isCloseTo(beta, within(0.01 * beta));
        double f = Collective.ALL_REDUCE.busFactor(ranks);
        double expected = SeedUtilisation.expectedBias(alpha, beta, f, max, 900.0);
        // busbw is printed to 0.01 GB/s: the seed's u_r can differ from the formula by that much and no more.
        assertThat(SeedUtilisation.of(p, 900.0, null).measuredUr()).isCloseTo(expected, within(0.0051 / 900.0));
    }

    @Test
    void fitsAreDeterministic() {
        FitPoints p = FitPoints.from(sweep, 8);
        SingleTierEstimator e = bPlusBeta();
        assertThat(Fitter.fit(e, p, List.of()).theta()).containsExactly(Fitter.fit(e, p, List.of()).theta());
    }
}
