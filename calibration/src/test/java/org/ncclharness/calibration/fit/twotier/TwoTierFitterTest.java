package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.calibration.model.TwoTierForm;
import org.ncclharness.calibration.model.TwoTierModel;
import org.ncclharness.calibration.model.TwoTierParam;
import org.ncclharness.calibration.model.TwoTierParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.ncclharness.calibration.fit.twotier.TwoTierTestData.TRUTH;

import java.util.List;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

class TwoTierFitterTest {

    private static final double NOISE = 0.003;

    @Test
    void oneConfigurationGivesBackItsLatencySumAndBusBandwidthAndMarksTheSplitUndetermined() {
        TwoTierConfig c = new TwoTierConfig(2, 8);
        for (TwoTierForm form : TwoTierForm.values()) {
            TwoTierProblem p = TwoTierTestData.one(form, c, TRUTH, NOISE, 11);
            TwoTierFit fit = TwoTierFitter.fit(p, form, TwoTierTestData.box(2));
            ConfigSummary s = fit.configurations().get(0);
            double latency = TRUTH.tSwUs() + TRUTH.alphaNvUs(c, 2) + TRUTH.alphaIbUs(c);
            assertThat(s.latencySumUs()).isCloseTo(latency, Percentage.withPercentage(1));
            assertThat(s.busBwAsymptoteGBps()).isCloseTo(
                    TwoTierModel.busBwAsymptoteGBps(form, c, 450, TRUTH), Percentage.withPercentage(1));
            for (TwoTierParam q : TwoTierParam.values()) {
                assertThat(fit.profile(q).status()).as(form + " " + q).isEqualTo(Identifiability.UNDETERMINED);
            }
            assertThat(fit.rmspePct()).isLessThan(0.5);
            assertThat(fit.bottleneck()).isEqualTo(form == TwoTierForm.FLAT_RING ? "undetermined" : null);
        }
    }

    @Test
    void theValleyShowsInTheProfiles() {
        TwoTierConfig c = new TwoTierConfig(2, 8);
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, c, TRUTH, NOISE, 3);
        TwoTierFit fit = TwoTierFitter.fit(p, TwoTierForm.HIERARCHICAL, TwoTierTestData.box(2));
        // T_sw can take most of the 45 µs intercept or almost none of it.
        ParamProfile tsw = fit.profile(TwoTierParam.T_SW);
        assertThat(tsw.lowest()).isLessThan(1);
        assertThat(tsw.highest()).isGreaterThan(30);
        assertThat(tsw.lowest()).isLessThanOrEqualTo(tsw.value());
        assertThat(tsw.highest()).isGreaterThanOrEqualTo(tsw.value());
    }

    @Test
    void aSingleDomainRunIdentifiesNvlinkUtilisationAndNothingAboutTheInterDomainLink() {
        TwoTierConfig c = new TwoTierConfig(1, 8);
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, c, TRUTH, NOISE, 5);
        TwoTierFit fit = TwoTierFitter.fit(p, TwoTierForm.HIERARCHICAL, TwoTierTestData.box(2));
        assertThat(fit.profile(TwoTierParam.U_NV).status()).isEqualTo(Identifiability.DETERMINED);
        assertThat(fit.params().uNv()).isCloseTo(TRUTH.uNv(), Percentage.withPercentage(1));
        assertThat(fit.profile(TwoTierParam.BETA_IB).status()).isEqualTo(Identifiability.UNDETERMINED);
        assertThat(fit.profile(TwoTierParam.ELL_IB).status()).isEqualTo(Identifiability.UNDETERMINED);
        assertThat(fit.profile(TwoTierParam.T_SW).status()).isEqualTo(Identifiability.UNDETERMINED);
    }

    @Test
    void aJointFitOverSeveralConfigurationsRecoversEveryParameter() {
        List<TwoTierConfig> configs = List.of(new TwoTierConfig(1, 8), new TwoTierConfig(2, 8),
                new TwoTierConfig(4, 8), new TwoTierConfig(2, 4), new TwoTierConfig(4, 4), new TwoTierConfig(8, 2));
        for (TwoTierForm form : TwoTierForm.values()) {
            TwoTierProblem p = TwoTierTestData.joint(form, configs, TRUTH, NOISE);
            TwoTierFit fit = TwoTierFitter.fit(p, form, TwoTierTestData.box(2));
            for (TwoTierParam q : TwoTierParam.values()) {
                assertThat(fit.profile(q).status()).as(form + " " + q).isEqualTo(Identifiability.DETERMINED);
                assertThat(fit.params().get(q)).as(form + " " + q).isCloseTo(TRUTH.get(q), Percentage.withPercentage(2));
                assertThat(fit.profile(q).needsPrior()).isFalse();
            }
            assertThat(fit.bottleneck()).isEqualTo(form == TwoTierForm.FLAT_RING ? "inter-domain" : null);
            assertThat(fit.looRmspePct()).isPresent();
            assertThat(fit.looRmspePct().getAsDouble()).isLessThan(1.0);
        }
    }

    @Test
    void anNvlinkBoundFlatRingShowsTheInterDomainLinkNoSlowerThanNvlink() {
        List<TwoTierConfig> configs = List.of(new TwoTierConfig(1, 8), new TwoTierConfig(2, 8),
                new TwoTierConfig(4, 4));
        TwoTierParams truth = new TwoTierParams(0.8, 600, 0.9, 4.0, 12.0);
        TwoTierProblem p = TwoTierTestData.joint(TwoTierForm.FLAT_RING, configs, truth, NOISE);
        TwoTierFit fit = TwoTierFitter.fit(p, TwoTierForm.FLAT_RING, TwoTierTestData.box(2));
        assertThat(fit.profile(TwoTierParam.U_NV).status()).isEqualTo(Identifiability.DETERMINED);
        assertThat(fit.params().uNv()).isCloseTo(0.8, Percentage.withPercentage(2));
        // Within noise the multi-domain slope is NVLink's: β_IB is at least u_NV·β_NV, never the 600 it is.
        ParamProfile beta = fit.profile(TwoTierParam.BETA_IB);
        assertThat(beta.lowest()).isGreaterThan(0.97 * 0.8 * 450);
        assertThat(fit.bottleneck()).isIn("nvlink", "inter-domain");
    }

    @Test
    void anExactNvlinkBoundFlatRingLeavesTheInterDomainBandwidthOpenAbove() {
        List<TwoTierConfig> configs = List.of(new TwoTierConfig(1, 8), new TwoTierConfig(2, 8),
                new TwoTierConfig(4, 4));
        TwoTierParams truth = new TwoTierParams(0.8, 600, 0.9, 4.0, 12.0);
        TwoTierProblem p = TwoTierTestData.joint(TwoTierForm.FLAT_RING, configs, truth, 0);
        TwoTierFit fit = TwoTierFitter.fit(p, TwoTierForm.FLAT_RING, TwoTierTestData.box(2));
        assertThat(fit.bottleneck()).isEqualTo("nvlink");
        ParamProfile beta = fit.profile(TwoTierParam.BETA_IB);
        assertThat(beta.status()).isEqualTo(Identifiability.UNDETERMINED);
        assertThat(beta.lowest()).isCloseTo(0.8 * 450, Percentage.withPercentage(0.1));
        assertThat(beta.touchesMax()).isTrue();
    }

    @Test
    void priorsFromTheSingleDomainCalibrationPinWhatOneConfigurationLeavesOpen() {
        TwoTierConfig c = new TwoTierConfig(2, 8);
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, c, TRUTH, NOISE, 13);
        List<Prior> priors = List.of(new Prior(TwoTierParam.U_NV, 0.80, 0.01, "single-domain"),
                new Prior(TwoTierParam.ELL_NV, 0.9, 0.02, "single-domain"));
        TwoTierFit fit = TwoTierFitter.fit(p, TwoTierForm.HIERARCHICAL, TwoTierTestData.box(2), priors);
        ParamProfile beta = fit.profile(TwoTierParam.BETA_IB);
        assertThat(beta.status()).isEqualTo(Identifiability.DETERMINED);
        assertThat(beta.needsPrior()).isTrue();
        assertThat(fit.params().betaIbGBps()).isCloseTo(TRUTH.betaIbGBps(), Percentage.withPercentage(2));
        // T_sw and ℓ_ib still share one intercept: a prior on ℓ_nv does not split them.
        assertThat(fit.profile(TwoTierParam.T_SW).status()).isEqualTo(Identifiability.UNDETERMINED);
        assertThat(fit.profile(TwoTierParam.ELL_IB).status()).isEqualTo(Identifiability.UNDETERMINED);
        assertThat(fit.priors()).hasSize(2);
    }

    @Test
    void neverWorseThanTheGridOnTheSameBox() {
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, new TwoTierConfig(4, 8), TRUTH, 0.01, 17);
        for (TwoTierForm form : TwoTierForm.values()) {
            ParamRanges box = TwoTierTestData.box(6);
            GridResult grid = GridSearch.run(p, form, box, 2, GridProgress.NONE);
            FastResult fast = TwoTierFitter.best(p, form, box);
            assertThat(fast.rmspePct()).isLessThanOrEqualTo(grid.rmspePct() * (1 + 1e-12));
            assertThat(TwoTierFitter.fit(p, form, box).rmspePct()).isCloseTo(fast.rmspePct(), within(1e-9));
        }
    }

    @Test
    void atOneConfigurationTheFormsAreIndistinguishable() {
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, new TwoTierConfig(2, 8), TRUTH, NOISE, 19);
        assertThat(TwoTierFitter.better(both(p))).isEmpty();
    }

    @Test
    void utilisationAboveOneIsFlagged() {
        TwoTierParams nvls = new TwoTierParams(1.2, 300, 0.9, 4.0, 12.0);
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, new TwoTierConfig(1, 8), nvls, NOISE, 23);
        ParamRanges box = TwoTierTestData.box(2).with(java.util.Map.of(TwoTierParam.U_NV, new ParamRange(0.3, 2, 2)));
        TwoTierFit fit = TwoTierFitter.fit(p, TwoTierForm.HIERARCHICAL, box);
        assertThat(fit.params().uNv()).isCloseTo(1.2, Percentage.withPercentage(1));
        assertThat(fit.notes()).anySatisfy(n -> assertThat(n).startsWith("u_NV = 1.2").contains("NVLS"));
    }

    @Test
    void aParameterHeldAtOneValueIsFixedAndFreesTheOnesItWasConfusedWith() {
        TwoTierProblem p = TwoTierTestData.one(TwoTierForm.HIERARCHICAL, new TwoTierConfig(1, 8),
                new TwoTierParams(0.8, 300, 0.9, 4.0, 0), NOISE, 29);
        ParamRanges box = TwoTierTestData.box(2).with(java.util.Map.of(TwoTierParam.T_SW, new ParamRange(0, 0, 1)));
        TwoTierFit fit = TwoTierFitter.fit(p, TwoTierForm.HIERARCHICAL, box);
        assertThat(fit.profile(TwoTierParam.T_SW).status()).isEqualTo(Identifiability.FIXED);
        assertThat(fit.profile(TwoTierParam.ELL_NV).status()).isEqualTo(Identifiability.DETERMINED);
        assertThat(fit.params().ellNvUs()).isCloseTo(0.9, Percentage.withPercentage(2));
        List<Prior> priors = SingleDomainPrior.from(p, "single");
        assertThat(priors).extracting(Prior::param).containsExactly(TwoTierParam.U_NV, TwoTierParam.ELL_NV);
        assertThat(priors.get(1).sigma()).isGreaterThanOrEqualTo(0.09 * 0.9);
    }

    @Test
    void theBetterFormIsNamed() {
        List<TwoTierConfig> configs = List.of(new TwoTierConfig(1, 8), new TwoTierConfig(2, 8),
                new TwoTierConfig(4, 8));
        TwoTierProblem p = TwoTierTestData.joint(TwoTierForm.FLAT_RING, configs, TRUTH, NOISE);
        List<TwoTierFit> both = both(p);
        assertThat(TwoTierFitter.better(both).map(TwoTierFit::form)).contains(TwoTierForm.FLAT_RING);
    }

    /** Both forms fitted on {@code p} in the test box, no priors. */
    private static List<TwoTierFit> both(TwoTierProblem p) {
        return List.of(TwoTierFitter.fit(p, TwoTierForm.HIERARCHICAL, TwoTierTestData.box(2), List.of()),
                TwoTierFitter.fit(p, TwoTierForm.FLAT_RING, TwoTierTestData.box(2), List.of()));
    }
}
