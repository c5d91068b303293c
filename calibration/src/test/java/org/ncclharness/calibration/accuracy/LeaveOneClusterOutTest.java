package org.ncclharness.calibration.accuracy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.fit.Rmspe;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.accuracy.AccuracyReport.CrossScale;
import org.ncclharness.calibration.accuracy.AccuracyReport.DatasetScores;
import org.ncclharness.calibration.accuracy.AccuracyReport.ModelScores;
import org.ncclharness.calibration.accuracy.HeldOut.Score;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Fold;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.GroupFold;
import org.ncclharness.calibration.accuracy.LeaveOneClusterOut.Split;
import org.ncclharness.calibration.calibrate.Candidates;

/**
 * The leave-one-cluster-out choice is made on the other clusters alone: synthetic reports where the held-out cluster,
 * had it been seen, would have flipped the choice.
 */
class LeaveOneClusterOutTest {

    private static final List<RunRule> RULES = List.of(RunRule.family("x", "x"), RunRule.family("y", "y"));

    private static Score score(double pct) {
        return new Score(rmspe(pct), null);
    }

    /** A model with these held-out scores (empty: not scored). */
    private static ModelScores model(String name, Double interleaved, Double extrapolation) {
        return new ModelScores(name, 4, rmspe(1.0), null, OptionalDouble.empty(), null, null,
                interleaved == null ? Score.none("too few points") : score(interleaved),
                extrapolation == null ? Score.none("too few points") : score(extrapolation), List.of());
    }

    private static DatasetScores run(String id, ModelScores... models) {
        return new DatasetScores(id, 16, 30, true, List.of(models));
    }

    private static AccuracyReport report(List<DatasetScores> runs, List<CrossScale> cross) {
        return new AccuracyReport(runs, List.of(), cross, List.of(), Map.of());
    }

    private static Clusters clusters(Map<String, List<String>> byName) {
        List<Clusters.Cluster> out = new ArrayList<>();
        byName.forEach((n, ids) -> out.add(new Clusters.Cluster(n, "test", ids)));
        return new Clusters(out);
    }

    @Test
    void theHeldOutClusterNeverDecidesTheRuleItIsScoredWith() {
        // pooled over all five runs y wins (medians 100 against 1); cluster A alone says x, cluster B alone y
        List<DatasetScores> runs = List.of(
                run("a1", model("x", 10.0, 10.0), model("y", 20.0, 20.0)),
                run("a2", model("x", 10.0, 10.0), model("y", 20.0, 20.0)),
                run("b1", model("x", 100.0, 100.0), model("y", 1.0, 1.0)),
                run("b2", model("x", 100.0, 100.0), model("y", 1.0, 1.0)),
                run("b3", model("x", 100.0, 100.0), model("y", 1.0, 1.0)));
        Clusters c = clusters(Map.of("A", List.of("a1", "a2"),
                "B", List.of("b1", "b2", "b3")));
        LeaveOneClusterOut l = LeaveOneClusterOut.of(report(runs, List.of()), c, RULES);

        Fold b = fold(l, "B");
        assertThat(b.ranking().get(0).rule()).isEqualTo("x");
        assertThat(b.ranking().get(0).medianPct().get(Split.INTERLEAVED)).hasValue(10.0);
        assertThat(b.runs()).allSatisfy(r -> {
            assertThat(r.splits().get(Split.INTERLEAVED).rule()).hasValue("x");
            assertThat(r.splits().get(Split.INTERLEAVED).pct()).hasValue(100.0);
            assertThat(r.splits().get(Split.EXTRAPOLATION).pct()).hasValue(100.0);
        });
        Fold a = fold(l, "A");
        assertThat(a.ranking().get(0).rule()).isEqualTo("y");
        assertThat(a.runs()).allSatisfy(r -> assertThat(r.splits().get(Split.INTERLEAVED).pct()).hasValue(20.0));
        // the synthetic runs have none of calibrate's families, so today's pick scores nothing
        assertThat(a.runs().get(0).splits().get(Split.INTERLEAVED).todayPct()).isEmpty();
    }

    @Test
    void aRunTheFirstRankedRuleCannotScoreIsScoredByTheNextAndARuleNobodyScoresIsNotRankedOnIt() {
        List<DatasetScores> runs = List.of(
                run("a1", model("x", 5.0, 5.0), model("y", 9.0, 9.0)),
                run("a2", model("x", 5.0, 5.0), model("y", 9.0, 9.0), model("z", null, 50.0)),
                run("b1", model("x", null, 7.0), model("y", 30.0, 3.0)));
        Clusters c = clusters(Map.of("A", List.of("a1", "a2"), "B", List.of("b1")));
        LeaveOneClusterOut l = LeaveOneClusterOut.of(report(runs, List.of()), c, RULES);
        var b1 = fold(l, "B").runs().get(0).splits();
        assertThat(b1.get(Split.INTERLEAVED).rule()).hasValue("y");
        assertThat(b1.get(Split.INTERLEAVED).pct()).hasValue(30.0);
        assertThat(b1.get(Split.EXTRAPOLATION).rule()).hasValue("x");
        // fold A ranks on b1 alone: x has no interleaved score there, so only the extrapolation split compares
        Fold a = fold(l, "A");
        assertThat(a.ranking().get(0).runs().get(Split.INTERLEAVED)).isZero();
        assertThat(a.ranking().get(0).rule()).isEqualTo("y");
    }

    @Test
    void aCrossScaleGroupIsScoredWithTheModelTheOtherClustersRankFirst() {
        // group g1 (cluster A) favours m1, groups g2 and g3 (cluster B) favour m2: pooled, m2 would win g1's fold
        List<CrossScale> cross = List.of(
                cross("g1", "m1", "a-big", 1.1), cross("g1", "m2", "a-big", 4.0),
                cross("g2", "m1", "b-big", 3.0), cross("g2", "m2", "b-big", 1.2),
                cross("g3", "m1", "b-other", 3.0), cross("g3", "m2", "b-other", 1.2));
        Clusters c = clusters(Map.of("A", List.of("a-big"),
                "B", List.of("b-big", "b-other")));
        LeaveOneClusterOut l = LeaveOneClusterOut.of(report(List.of(), cross), c, RULES);
        GroupFold g1 = l.groups().get(0);
        assertThat(g1.cluster()).isEqualTo("A");
        assertThat(g1.model()).hasValue("m2");
        assertThat(g1.ratio().getAsDouble()).isEqualTo(4.0, within(1e-12));
        GroupFold g2 = l.groups().get(1);
        // g3 is in g2's cluster: held out with it, so g1 alone ranks, and m1 is used
        assertThat(g2.ranking().get(0).groups()).isEqualTo(1);
        assertThat(g2.model()).hasValue("m1");
    }

    @Test
    void aMultiDomainRunInNoClusterIsRejectedNamingTheFileToFix() {
        List<DatasetScores> runs = List.of(run("lost", model("x", 1.0, 1.0)));
        Clusters c = clusters(Map.of("A", List.of("other")));
        assertThatThrownBy(() -> LeaveOneClusterOut.of(report(runs, List.of()), c, RULES))
                .hasMessageContaining("accuracy/clusters.json").hasMessageContaining("lost");
    }

    @Test
    void aFoldRanksOnTheOtherClustersRunsOnly() {
        List<DatasetScores> runs = List.of(run("a1", model(Candidates.ENVELOPE, 5.0, 5.0)),
                run("b1", model(Candidates.ENVELOPE, 6.0, 6.0)));
        Clusters c = clusters(Map.of("A", List.of("a1"), "B", List.of("b1")));
        LeaveOneClusterOut l = LeaveOneClusterOut.of(report(runs, List.of()), c,
                List.of(RunRule.family(Candidates.ENVELOPE, "e")));
        assertThat(l.folds()).allSatisfy(f -> assertThat(f.ranking().get(0).runs().get(Split.INTERLEAVED))
                .isEqualTo(1));
        assertThat(fold(l, "A").ranking().get(0).medianPct().get(Split.INTERLEAVED)).hasValue(6.0);
    }

    private static CrossScale cross(String group, String model, String predicted, double ratio) {
        return new CrossScale(group, model, "small", 8, predicted, 16, score(ratio * 10), OptionalDouble.of(10));
    }

    private static Fold fold(LeaveOneClusterOut l, String cluster) {
        return l.folds().stream().filter(f -> f.cluster().equals(cluster)).findFirst().orElseThrow();
    }

    private static Rmspe rmspe(double pct) {
        return new Rmspe(OptionalDouble.of(pct), Map.of(), 10);
    }
}
