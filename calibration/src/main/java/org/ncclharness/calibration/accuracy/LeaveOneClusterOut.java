package org.ncclharness.calibration.accuracy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.ncclharness.calibration.accuracy.AccuracyReport.CrossScale;
import org.ncclharness.calibration.accuracy.AccuracyReport.DatasetScores;
import org.ncclharness.calibration.accuracy.AccuracyReport.ModelScores;
import org.ncclharness.calibration.accuracy.HeldOut.Score;
import org.ncclharness.calibration.calibrate.Candidates;

/**
 * The held-out scores with every choice made across runs made without the system being scored: for each cluster
 * ({@link Clusters}), the rules of {@link RunRule#ALTERNATIVES} are ranked by their held-out medians on the runs of
 * the other clusters, and the cluster's runs are scored with the best-ranked rule that gives the run a score; the
 * cross-scale models likewise by their median ratio to the floor on the other clusters' groups. A selection over
 * the report's scores: nothing is fitted again.
 *
 * @param folds  one per cluster with a multi-domain run, in the clusters' order
 * @param groups one per cross-scale group, in the report's order
 */
public record LeaveOneClusterOut(List<Fold> folds, List<GroupFold> groups) {

    /** The model today's cross-scale figures use: the joint algorithm envelope (the summary's cross-scale row). */
    public static final String TODAY_CROSS_SCALE = Candidates.ALGORITHMS;

    /** The two per-run splits, by their scores in a {@link ModelScores}. */
    public enum Split {
        INTERLEAVED("interleaved", ModelScores::interleaved),
        EXTRAPOLATION("extrapolation", ModelScores::extrapolation);

        private final String label;
        private final Function<ModelScores, Score> score;

        Split(String label, Function<ModelScores, Score> score) {
            this.label = label;
            this.score = score;
        }

        public String label() {
            return label;
        }

        OptionalDouble pct(Optional<ModelScores> m) {
            return m.map(score).filter(s -> s != null && s.scored()).map(s -> OptionalDouble.of(s.pct()))
                    .orElse(OptionalDouble.empty());
        }
    }

    /**
     * A rule as the other clusters rank it: per split its median over the runs where every rule is scored on that
     * split (empty where there is none), and how many runs that is.
     */
    public record Ranked(String rule, Map<Split, OptionalDouble> medianPct, Map<Split, Integer> runs) {
        /** The ranking key: the sum of the medians (lower first). */
        double key() {
            return medianPct.values().stream().filter(OptionalDouble::isPresent)
                    .mapToDouble(OptionalDouble::getAsDouble).sum();
        }
    }

    /**
     * One run's score on one split: by which rule (empty where none scores it), and today's pick's; the rule's
     * {@link HeldOut.End} where it has one.
     */
    public record SplitScore(Optional<String> rule, OptionalDouble pct, OptionalDouble todayPct,
                             Optional<HeldOut.End> end) {
        public SplitScore(Optional<String> rule, OptionalDouble pct, OptionalDouble todayPct) {
            this(rule, pct, todayPct, Optional.empty());
        }
    }

    /** One held-out run. */
    public record RunScore(String id, int ranks, Map<Split, SplitScore> splits) {
    }

    /** One held-out cluster, with why its runs are one system: the ranking the other clusters gave, and its runs. */
    public record Fold(String cluster, String reason, List<Ranked> ranking, List<RunScore> runs) {
    }

    /** A cross-scale model ranked on the other clusters' groups: its median ratio to the floor there. */
    public record RankedModel(String model, OptionalDouble medianRatio, int groups) {
    }

    /**
     * One cross-scale group, its cluster held out: the ranking, the model used (the best-ranked with a ratio on this
     * group, empty where none has one) and its ratio, and today's.
     */
    public record GroupFold(String group, String cluster, String predicted, List<RankedModel> ranking,
                            Optional<String> model, OptionalDouble ratio, OptionalDouble todayRatio) {
    }

    public static LeaveOneClusterOut of(AccuracyReport r, Clusters clusters) {
        return of(r, clusters, RunRule.ALTERNATIVES);
    }

    static LeaveOneClusterOut of(AccuracyReport r, Clusters clusters, List<RunRule> rules) {
        Map<String, String> clusterOf = new LinkedHashMap<>();
        List<DatasetScores> multi = r.datasets().stream().filter(DatasetScores::multiDomain).toList();
        for (DatasetScores d : multi) {
            clusterOf.put(d.id(), clusters.of(d.id()).orElseThrow(() -> new IllegalStateException(Clusters.RESOURCE
                    + ": multi-domain dataset " + d.id() + " is in no cluster; add it to the cluster of the system"
                    + " it ran on, or a new cluster with its reason")));
        }
        List<Fold> folds = new ArrayList<>();
        for (Clusters.Cluster c : clusters.clusters()) {
            List<DatasetScores> held = multi.stream().filter(d -> clusterOf.get(d.id()).equals(c.name())).toList();
            if (held.isEmpty()) {
                continue;
            }
            List<DatasetScores> others = multi.stream().filter(d -> !clusterOf.get(d.id()).equals(c.name())).toList();
            List<Ranked> ranking = rank(rules, others);
            List<RunScore> runs = held.stream().map(d -> score(d, ranking, rules)).toList();
            folds.add(new Fold(c.name(), c.reason(), ranking, runs));
        }
        return new LeaveOneClusterOut(folds, groups(r.crossScale(), clusters));
    }

    /** The rules in order of their summed split medians on {@code runs}, the declared order breaking ties. */
    static List<Ranked> rank(List<RunRule> rules, List<DatasetScores> runs) {
        Map<Split, List<DatasetScores>> common = new LinkedHashMap<>();
        for (Split s : Split.values()) {
            common.put(s, runs.stream().filter(d -> rules.stream()
                    .allMatch(rule -> s.pct(rule.model().apply(d)).isPresent())).toList());
        }
        List<Ranked> ranked = new ArrayList<>();
        for (RunRule rule : rules) {
            Map<Split, OptionalDouble> medians = new LinkedHashMap<>();
            Map<Split, Integer> counts = new LinkedHashMap<>();
            for (Split s : Split.values()) {
                double[] v = common.get(s).stream().mapToDouble(d -> s.pct(rule.model().apply(d)).getAsDouble())
                        .toArray();
                medians.put(s, median(v));
                counts.put(s, v.length);
            }
            ranked.add(new Ranked(rule.name(), medians, counts));
        }
        // List.sort is stable: among equal keys the declared order, today's rule first
        ranked.sort(Comparator.comparingDouble(Ranked::key));
        return List.copyOf(ranked);
    }

    /**
     * A held-out run on each split by the best-ranked rule that scores it there: whether a rule scores a run depends
     * on its fitting half alone (enough points, the family fitted), never on the held-out points.
     */
    private static RunScore score(DatasetScores d, List<Ranked> ranking, List<RunRule> rules) {
        Map<Split, SplitScore> splits = new LinkedHashMap<>();
        for (Split s : Split.values()) {
            OptionalDouble today = s.pct(RunRule.PICK.model().apply(d));
            SplitScore none = new SplitScore(Optional.empty(), OptionalDouble.empty(), today);
            SplitScore used = none;
            for (Ranked rk : ranking) {
                RunRule rule = rules.stream().filter(x -> x.name().equals(rk.rule())).findFirst().orElseThrow();
                Optional<ModelScores> m = rule.model().apply(d);
                OptionalDouble pct = s.pct(m);
                if (pct.isPresent()) {
                    used = new SplitScore(Optional.of(rule.name()), pct, today,
                            m.map(s.score).map(Score::end));
                    break;
                }
            }
            splits.put(s, used);
        }
        return new RunScore(d.id(), d.ranks(), splits);
    }

    private static List<GroupFold> groups(List<CrossScale> cross, Clusters clusters) {
        List<String> models = List.copyOf(cross.stream().map(CrossScale::model)
                .collect(Collectors.toCollection(LinkedHashSet::new)));
        Map<String, List<CrossScale>> byGroup = new LinkedHashMap<>();
        cross.forEach(c -> byGroup.computeIfAbsent(c.group(), k -> new ArrayList<>()).add(c));
        Map<String, String> clusterOf = new LinkedHashMap<>();
        byGroup.forEach((g, cs) -> clusterOf.put(g, clusters.of(cs.get(0).predicted()).orElseThrow(() ->
                new IllegalStateException(Clusters.RESOURCE + ": the cross-scale group '" + g + "' predicts "
                        + cs.get(0).predicted() + ", which is in no cluster; add it to its system's cluster"))));
        List<GroupFold> out = new ArrayList<>();
        byGroup.forEach((g, cs) -> {
            String cluster = clusterOf.get(g);
            List<List<CrossScale>> others = byGroup.entrySet().stream()
                    .filter(e -> !clusterOf.get(e.getKey()).equals(cluster)).map(Map.Entry::getValue).toList();
            List<RankedModel> ranking = rankModels(models, others);
            Optional<String> used = ranking.stream().map(RankedModel::model)
                    .filter(m -> ratio(cs, m).isPresent()).findFirst();
            out.add(new GroupFold(g, cluster, cs.get(0).predicted(), ranking, used,
                    used.map(m -> ratio(cs, m)).orElse(OptionalDouble.empty()), ratio(cs, TODAY_CROSS_SCALE)));
        });
        return out;
    }

    /** The models by their median ratio on the groups where every model has one, the report's order on ties. */
    static List<RankedModel> rankModels(List<String> models, List<List<CrossScale>> groups) {
        Predicate<List<CrossScale>> everyModel = g -> models.stream().allMatch(m -> ratio(g, m).isPresent());
        List<List<CrossScale>> common = groups.stream().filter(everyModel).toList();
        List<RankedModel> ranked = new ArrayList<>();
        for (String m : models) {
            double[] v = common.stream().mapToDouble(g -> ratio(g, m).getAsDouble()).toArray();
            ranked.add(new RankedModel(m, median(v), v.length));
        }
        ranked.sort(Comparator.comparingDouble(x -> x.medianRatio().orElse(Double.MAX_VALUE)));
        return List.copyOf(ranked);
    }

    private static OptionalDouble ratio(List<CrossScale> group, String model) {
        return group.stream().filter(c -> c.model().equals(model)).map(CrossScale::ratio)
                .filter(OptionalDouble::isPresent).findFirst().orElse(OptionalDouble.empty());
    }

    static OptionalDouble median(double[] v) {
        return v.length == 0 ? OptionalDouble.empty() : OptionalDouble.of(new Median().evaluate(v));
    }
}
