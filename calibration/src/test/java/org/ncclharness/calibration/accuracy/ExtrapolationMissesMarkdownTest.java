package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Fold;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.RunScore;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Split;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.SplitScore;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;

/**
 * The extrapolation misses say, per run above the target, whether the model moves the largest size slower or faster
 * than measured; the end is read off the held-out fit itself.
 */
class ExtrapolationMissesMarkdownTest {

    private static final double MIB = 1 << 20;

    private static RunScore run(String id, double extrapolation, HeldOut.End end) {
        Map<Split, SplitScore> s = new EnumMap<>(Split.class);
        s.put(Split.INTERLEAVED, new SplitScore(Optional.empty(), OptionalDouble.empty(), OptionalDouble.empty()));
        s.put(Split.EXTRAPOLATION, new SplitScore(Optional.of("picked"), OptionalDouble.of(extrapolation),
                OptionalDouble.of(extrapolation), Optional.of(end)));
        return new RunScore(id, 16, s);
    }

    private static String render(List<RunScore> runs) {
        StringBuilder sb = new StringBuilder();
        ExtrapolationMissesMarkdown.render(sb, new LeaveOneClusterOut(List.of(new Fold("A", "one system", List.of(),
                runs)), List.of()), 5);
        return sb.toString();
    }

    @Test
    void onlyRunsAboveTheTargetAreListedEachSlowerOrFaster() {
        String md = render(List.of(run("risen", 80, new HeldOut.End(8192 * MIB, 40, 70, 39, "LL128")),
                run("overshot", 20, new HeldOut.End(16384 * MIB, 290, 357, 472, null)),
                run("held", 3, new HeldOut.End(8192 * MIB, 90, 92, 91, "Simple"))));
        assertThat(md).contains("1 of 2 are slower.")
                .contains("| A | `risen` | 80.0 % (picked) | 8 GiB | 40.0 | 70.0 | 39.0 | LL128 | slower |")
                .contains("| A | `overshot` | 20.0 % (picked) | 16 GiB | 290.0 | 357.0 | 472.0 | - | faster |")
                .doesNotContain("`held`");
    }

    @Test
    void noRunAboveTheTargetAddsNothing() {
        assertThat(render(List.of(run("held", 3, new HeldOut.End(8192 * MIB, 90, 92, 91, "Simple"))))).isEmpty();
    }

    @Test
    void theEndOfASplitIsTheLargestPredictedSizeAndTheFittedSizesHighestBusbw() {
        // busbw doubles above 256 MiB, as on the OCI A100 RoCE run: the fit below cannot know it
        int n = 24; // 1 KiB to 8 GiB: 19 sizes to fit, 5 to predict
        double[] bytes = new double[n];
        double[] t = new double[n];
        double[] bus = new double[n];
        double f = Collective.ALL_REDUCE.busFactor(16);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = Math.pow(2, 10 + i);
            double b = bytes[i] > 256 * MIB ? 70 : 35;
            t[i] = 20 + f * bytes[i] / (b * 1e3);
            bus[i] = f * bytes[i] / (t[i] * 1e3);
        }
        FitPoints p = new FitPoints(bytes, t, bus, Placement.OUT_OF_PLACE, false, List.of());
        ProtocolEnvelopeEstimator e = ProtocolEnvelopeEstimator.fitted("envelope", "",
                new ProtocolEnvelopeModel(Collective.ALL_REDUCE, 16, 1));
        HeldOut.End end = HeldOut.extrapolation(e, p).end();
        assertThat(end.largestBytes()).isEqualTo(bytes[n - 1]);
        assertThat(end.measuredBusBwGBps()).isEqualTo(bus[n - 1]);
        assertThat(end.fittedBusBwGBps()).isEqualTo(bus[18]);
        assertThat(end.predictedBusBwGBps()).isBetween(30.0, 36.0);
        assertThat(end.tooSlow()).isTrue();
        assertThat(end.carrier()).isIn("LL128", "Simple");
    }
}
