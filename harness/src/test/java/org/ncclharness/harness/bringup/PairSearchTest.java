package org.ncclharness.harness.bringup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.check.CheckRules;

/**
 * The pair searches on simulated clusters: a group runs at its slowest host's speed (a ring waits for its slowest
 * link), with ±5 % noise, healthy hosts at 45 GB/s and slow ones at 15.
 */
class PairSearchTest {

    private static final CheckRules RULES = CheckRules.defaults();

    /** Runs a search to its end against simulated hosts; returns the result. */
    private static PairResult simulate(int hosts, Set<Integer> slow, long seed, List<List<List<Integer>>> rounds) {
        Random noise = new Random(seed);
        PairSearch search = PairSearch.forHosts(hosts, RULES);
        for (List<List<Integer>> round = search.nextRound(); !round.isEmpty(); round = search.nextRound()) {
            rounds.add(round);
            List<Double> bw = new ArrayList<>();
            for (List<Integer> g : round) {
                double speed = g.stream().anyMatch(slow::contains) ? 15 : 45;
                bw.add(speed * (0.95 + 0.1 * noise.nextDouble()));
            }
            search.record(bw);
        }
        return search.result(IntStream.range(0, hosts).mapToObj(h -> "node" + h).toList());
    }

    @Test
    void allPairsMeasuresEveryPairOnceInHostsMinusOneRoundsOfDisjointPairs() {
        List<List<List<Integer>>> rounds = new ArrayList<>();
        PairResult r = simulate(8, Set.of(5), 1, rounds);
        assertThat(rounds).hasSize(7);
        Set<List<Integer>> seen = new HashSet<>();
        for (List<List<Integer>> round : rounds) {
            assertThat(round.stream().flatMap(List::stream).distinct().count()).isEqualTo(2L * round.size());
            round.forEach(p -> assertThat(seen.add(p)).as("pair %s once", p).isTrue());
        }
        assertThat(seen).hasSize(28);
        assertThat(r.method()).isEqualTo("all pairs");
        assertThat(r.slowHosts()).containsExactly(5);
        assertThat(r.reasons()).singleElement().satisfies(s -> assertThat(s).startsWith("node5: all 7 of its pairs"));
        assertThat(r.pairMatrix()[5][2]).isBetween(14.0, 16.0);
        assertThat(r.pairMatrix()[2][2]).isNaN();
    }

    @Test
    void anOddHostCountSitsOneOutEachRoundAndStillPairsEveryone() {
        List<List<List<Integer>>> rounds = new ArrayList<>();
        PairResult r = simulate(5, Set.of(), 2, rounds);
        assertThat(rounds).hasSize(5).allSatisfy(round -> assertThat(round).hasSize(2));
        assertThat(r.measured()).hasSize(10);
        assertThat(r.slowHosts()).isEmpty();
        assertThat(r.reasons()).isEmpty();
    }

    @Test
    void aSlowLinkBetweenTwoGoodHostsIsOnePairNotAHost() {
        PairSearch search = PairSearch.forHosts(4, RULES);
        for (List<List<Integer>> round = search.nextRound(); !round.isEmpty(); round = search.nextRound()) {
            search.record(round.stream().map(p -> p.equals(List.of(1, 3)) ? 10.0 : 45.0).toList());
        }
        PairResult r = search.result(List.of("a", "b", "c", "d"));
        assertThat(r.slowHosts()).isEmpty();
        assertThat(r.reasons()).singleElement().satisfies(s -> assertThat(s).startsWith("pair b-d: 10")
                .contains("the path between them"));
    }

    @Test
    void aboveSixteenHostsTheHalvingSearchFindsOneSlowHostInAFewRounds() {
        List<List<List<Integer>>> rounds = new ArrayList<>();
        PairResult r = simulate(64, Set.of(37), 3, rounds);
        assertThat(r.method()).isEqualTo("halving search");
        assertThat(r.slowHosts()).containsExactly(37);
        assertThat(r.reasons()).singleElement().satisfies(s -> assertThat(s).startsWith("node37: ")
                .contains("paired with node").contains("known good"));
        // 8 groups of 8; the slow one's halves of 4; that slow half's pairs; each host of the slow pair with a good
        // host: 4 rounds where all pairs take 63
        assertThat(rounds).hasSize(4);
        for (List<List<Integer>> round : rounds) {
            assertThat(round.stream().flatMap(List::stream).distinct().count())
                    .isEqualTo(round.stream().mapToLong(List::size).sum());
        }
    }

    @Property(tries = 60)
    void theHalvingSearchNamesExactlyTheSlowHosts(@ForAll @IntRange(min = 17, max = 96) int hosts,
                                                  @ForAll @IntRange(min = 0, max = 3) int slowCount,
                                                  @ForAll long seed) {
        Random pick = new Random(seed);
        Set<Integer> slow = new HashSet<>();
        while (slow.size() < slowCount) {
            slow.add(pick.nextInt(hosts));
        }
        List<List<List<Integer>>> rounds = new ArrayList<>();
        PairResult r = simulate(hosts, slow, seed, rounds);
        assertThat(r.slowHosts()).containsExactlyInAnyOrderElementsOf(slow);
        assertThat(rounds.size()).as("rounds for %d hosts", hosts).isLessThan(hosts / 2);
    }
}
