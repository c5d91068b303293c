package org.ncclharness.harness.bringup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.ncclharness.calibration.check.CheckRules;

/**
 * Every pair of hosts, in the rounds of a round-robin tournament (the circle method): H − 1 rounds for an even
 * H, H for an odd one (one host sits out each round), every host in at most one pair per round. A pair is slow
 * below {@code failBelowPct} % of the median pair; a host is named when every one of its pairs is slow, which
 * tells a bad host (all its pairs) from a bad link between two good ones (one pair).
 */
final class AllPairs implements PairSearch {

    private final int hosts;
    private final CheckRules rules;
    private final int slots;
    private final List<PairResult.Group> measured = new ArrayList<>();
    private List<List<Integer>> pending;
    private int round;

    AllPairs(int hosts, CheckRules rules) {
        this.hosts = hosts;
        this.rules = rules;
        this.slots = hosts % 2 == 0 ? hosts : hosts + 1; // an odd count plays against an empty slot
    }

    @Override
    public List<List<Integer>> nextRound() {
        if (round >= slots - 1) {
            return List.of();
        }
        List<List<Integer>> pairs = new ArrayList<>();
        int n = slots - 1;
        add(pairs, slots - 1, round);
        for (int k = 1; k < slots / 2; k++) {
            add(pairs, (round + k) % n, (round - k + n) % n);
        }
        pending = pairs;
        return pairs;
    }

    private void add(List<List<Integer>> pairs, int a, int b) {
        if (a < hosts && b < hosts) {
            pairs.add(List.of(Math.min(a, b), Math.max(a, b)));
        }
    }

    @Override
    public void record(List<Double> busBwGBps) {
        for (int i = 0; i < pending.size(); i++) {
            measured.add(new PairResult.Group(pending.get(i), busBwGBps.get(i), Double.NaN, false));
        }
        round++;
    }

    @Override
    public PairResult result(List<String> names) {
        double ref = new Median().evaluate(measured.stream().mapToDouble(PairResult.Group::busBwGBps).toArray());
        double limit = ref * rules.failBelowPct() / 100;
        List<PairResult.Group> judged = measured.stream().map(g -> new PairResult.Group(g.hosts(), g.busBwGBps(),
                ref, g.busBwGBps() < limit)).toList();
        List<Integer> slow = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (int h = 0; h < hosts && hosts > 2; h++) {
            int host = h;
            List<PairResult.Group> mine = judged.stream().filter(g -> g.hosts().contains(host)).toList();
            if (!mine.isEmpty() && mine.stream().allMatch(PairResult.Group::slow)) {
                slow.add(h);
                reasons.add(String.format(Locale.ROOT, "%s: all %d of its pairs are below %.0f %% of the median"
                        + " pair (%.2f GB/s); best of them %.2f GB/s", names.get(h), mine.size(), rules.failBelowPct(), ref,
                        mine.stream().mapToDouble(PairResult.Group::busBwGBps).max().orElseThrow()));
            }
        }
        for (PairResult.Group g : judged) {
            if (g.slow() && g.hosts().stream().noneMatch(slow::contains)) {
                reasons.add(String.format(Locale.ROOT, "pair %s-%s: %.2f GB/s, below %.0f %% of the median pair (%.2f"
                        + " GB/s), while %s", names.get(g.hosts().get(0)), names.get(g.hosts().get(1)), g.busBwGBps(), rules.failBelowPct(),
                        ref, hosts == 2 ? "with 2 hosts there is no third to tell which host it is"
                        : "both hosts' other pairs are not all slow: the path between them"));
            }
        }
        return new PairResult(hosts, judged, slow, reasons, round, "all pairs");
    }
}
