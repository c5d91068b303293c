package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Fold;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.GroupFold;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Ranked;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.RunScore;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Split;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.SplitScore;

/** The section marks each target against every run (group) it is set on, and gives today's beside the choice. */
class LeaveOneClusterOutMarkdownTest {

    private static RunScore run(String id, double interleaved, double extrapolation, double todayExtrapolation) {
        Map<Split, SplitScore> s = new EnumMap<>(Split.class);
        s.put(Split.INTERLEAVED, new SplitScore(Optional.of("x"), OptionalDouble.of(interleaved),
                OptionalDouble.of(interleaved)));
        s.put(Split.EXTRAPOLATION, new SplitScore(Optional.of("x"), OptionalDouble.of(extrapolation),
                OptionalDouble.of(todayExtrapolation)));
        return new RunScore(id, 16, s);
    }

    private static String render(List<RunScore> runs, List<GroupFold> groups) {
        Ranked x = new Ranked("x", new EnumMap<>(Map.of(Split.INTERLEAVED, OptionalDouble.of(5),
                Split.EXTRAPOLATION, OptionalDouble.of(2))), new EnumMap<>(Map.of(Split.INTERLEAVED, 3,
                Split.EXTRAPOLATION, 3)));
        StringBuilder sb = new StringBuilder();
        LeaveOneClusterOutMarkdown.render(sb, new LeaveOneClusterOut(List.of(new Fold("A", "one system", List.of(x), runs)),
                groups));
        return sb.toString();
    }

    @Test
    void oneRunAboveTheExtrapolationTargetMissesItWhileTheMedianIsLow() {
        String md = render(List.of(run("r1", 6, 1, 1), run("r2", 7, 2, 2), run("r3", 7, 6, 4)), List.of());
        assertThat(md).contains("| interleaved | median <= 8 % | 7.0 % (3) met |");
        assertThat(md).contains("median 2.0 %, worst 6.0 %, 1 of 3 above it: MISSED")
                .contains("median 2.0 %, worst 4.0 %, 0 of 3 above it: met");
    }

    @Test
    void aGroupOverTheFloorTargetMissesItAndTodaysRatioStandsBeside() {
        GroupFold g = new GroupFold("g", "A", "big", List.of(), Optional.of("m"), OptionalDouble.of(1.3),
                OptionalDouble.of(1.2));
        String md = render(List.of(run("r1", 6, 1, 1)), List.of(g));
        assertThat(md).contains("| g | A |  | m | 1.30 | 1.20 |");
        assertThat(md).contains("| cross-scale | every group <= 1.25 x floor | median 1.30, worst 1.30, 1 of 1 above"
                + " it: MISSED | median 1.30, worst 1.30, 1 of 1 above it: MISSED | median 1.20, worst 1.20, 0 of 1"
                + " above it: met |");
    }
}
