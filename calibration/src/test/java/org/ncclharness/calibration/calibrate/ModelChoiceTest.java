package org.ncclharness.calibration.calibrate;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.calibrate.ModelChoice.Family;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ModelChoiceTest {

    private static Family scored(String name, double loo, double in, int k, int n) {
        return new Family(name, OptionalDouble.of(loo), OptionalDouble.of(in), k, n);
    }

    private static Family unscored(String name, double in, int k, int n) {
        return new Family(name, OptionalDouble.empty(), OptionalDouble.of(in), k, n);
    }

    @Test
    void aFamilyTooSmallForLeaveOneOutIsComparedByGeneralizedCrossValidation() {
        // 19 sizes: leave-one-out for the two-tier forms (k = 5 needs 18), not for the envelopes (21 and 27)
        ModelChoice c = ModelChoice.of(List.of(unscored("envelope", 12.5, 6, 19), unscored("algorithms", 9.6, 8, 19),
                scored("flat-ring", 26.4, 23.6, 5, 19)), "envelope", "the default");
        Family alg = c.families().get(1);
        assertThat(alg.scorePct().getAsDouble()).isCloseTo(9.6 / (1 - 8.0 / 19), within(1e-12));
        assertThat(alg.estimated()).isTrue();
        assertThat(c.picked()).isEqualTo("algorithms");
        assertThat(c.basis()).startsWith("lowest out-of-sample RMSPE, 16.6 % by generalized cross-validation"
                + " (in-sample 9.6 % / (1 - 8/19): too few points for leave-one-out)");
        assertThat(c.summary()).isEqualTo("envelope 18.3 % (GCV), algorithms 16.6 % (GCV), flat-ring 26.4 %");
        assertThat(c.estimates()).containsOnlyKeys("envelope", "algorithms");
        assertThat(c.scores().get("flat-ring")).hasValue(26.4);
        assertThat(c.scores().get("algorithms")).isEmpty();
    }

    @Test
    void aTieToTheReportsPrecisionGoesToTheFamilyWithFewerParametersWhicheverWayItWasScored() {
        ModelChoice c = ModelChoice.of(List.of(scored("envelope", 9.18, 7.5, 6, 24), unscored("algorithms", 6.1, 8, 24)),
                "envelope", "the default");
        // algorithms: 6.1 / (1 - 8/24) = 9.15, the envelope's 9.18 to 0.1 point, and with more parameters
        assertThat(c.picked()).isEqualTo("envelope");
        assertThat(c.basis()).isEqualTo("leave-one-out RMSPE 9.2 %, as low as algorithms's 9.1 % GCV to 0.1 point,"
                + " with fewer parameters (k = 6 against 8)");
    }

    @Test
    void aLowerScoreByMoreThanTheReportsPrecisionWinsWhateverItsParameters() {
        // 0.3 point apart (the MI300X 2-node run's leave-one-out scores): the lower one is picked
        ModelChoice c = ModelChoice.of(List.of(scored("envelope", 9.0, 6.5, 6, 32), scored("algorithms", 8.7, 6.3, 8, 32)),
                "envelope", "the default");
        assertThat(c.picked()).isEqualTo("algorithms");
        assertThat(c.basis()).isEqualTo("lowest leave-one-out RMSPE (8.7 %)");
    }

    @Test
    void whereNoFamilyHasThePointsForLeaveOneOutTheFallbackIsUsed() {
        // 11 sizes of a partial log: the fits are too few to choose between families by
        ModelChoice c = ModelChoice.of(List.of(unscored("envelope", 7.2, 6, 11), unscored("algorithms", 7.4, 8, 11),
                unscored("flat-ring", 7.2, 5, 11)), "envelope", "the default");
        assertThat(c.picked()).isEqualTo("envelope");
        assertThat(c.basis()).startsWith("no family has enough points for leave-one-out; envelope, the default");
        assertThat(c.estimates()).isEmpty();
        assertThat(c.summary()).isEqualTo("envelope not scored, algorithms not scored, flat-ring not scored");
    }

    @Test
    void leaveOneOutAloneGivesTheBasisItAlwaysGave() {
        ModelChoice c = ModelChoice.of(List.of(scored("envelope", 11.3, 9.5, 6, 31), scored("algorithms", 6.3, 4.0, 8,
                31), scored("flat-ring", 24.4, 23.4, 5, 31)), "envelope", "the default");
        assertThat(c.picked()).isEqualTo("algorithms");
        assertThat(c.basis()).isEqualTo("lowest leave-one-out RMSPE (6.3 %)");
        assertThat(c.estimates()).isEmpty();
    }

    @Test
    void aWiderTieMarginGivesTheFamilyWithFewerParametersWhatTheDefaultMarginDoesNot() {
        List<Family> families = List.of(scored("envelope", 9.6, 7.5, 6, 30), scored("algorithms", 9.0, 6.1, 8, 30));
        assertThat(ModelChoice.of(families, "envelope", "the default").picked()).isEqualTo("algorithms");
        ModelChoice wide = ModelChoice.of(families, "envelope", "the default", 1.0);
        assertThat(wide.picked()).isEqualTo("envelope");
        assertThat(wide.basis()).contains("as low as algorithms's 9.0 % within 1.0 point");
    }
}
