package org.ncclharness.harness.bringup;

import java.util.List;
import org.ncclharness.calibration.check.CheckRules;

/**
 * The bad-node search of {@code bringup --pairs}: which hosts run together next (each round a set of disjoint
 * groups, all measured at once on their own communicators), from what the rounds so far measured. Pure: the
 * command measures, the search decides, so the search is tested on simulated times.
 */
public sealed interface PairSearch permits AllPairs, HalvingSearch {

    /** Up to this many hosts every pair is measured; above it, the halving search. */
    int ALL_PAIRS_MAX_HOSTS = 16;

    /** The next round's groups of host indices, disjoint; empty when the search is over. */
    List<List<Integer>> nextRound();

    /** The busbw each group of the round {@link #nextRound} gave reached, in its order. */
    void record(List<Double> busBwGBps);

    /** What the rounds found, the hosts named by {@code names} (index → name). */
    PairResult result(List<String> names);

    static PairSearch forHosts(int hosts, CheckRules rules) {
        if (hosts < 2) {
            throw new IllegalArgumentException("a pair search needs 2 hosts or more, the job has " + hosts);
        }
        return hosts <= ALL_PAIRS_MAX_HOSTS ? new AllPairs(hosts, rules) : new HalvingSearch(hosts, rules);
    }
}
