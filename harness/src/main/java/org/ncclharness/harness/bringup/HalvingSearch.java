package org.ncclharness.harness.bringup;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.ncclharness.calibration.check.CheckRules;

/**
 * The bad-host search for more hosts than all pairs can afford (H − 1 rounds): a group holding a slow host runs
 * at that host's speed, so the hosts are cut into {@link #FIRST_GROUPS} groups, each slow group is halved until
 * it has at most 3 hosts, and each host left is then paired with a host already known good. A host is named when
 * its pair with a good host is slow too. One slow host among 64 is found in 4 rounds where all pairs take 63.
 *
 * <p>Every round also puts the hosts it does not test into control groups of the tested groups' size, so a
 * group is judged against like measured at the same time: slow is below {@code failBelowPct} % of the round's
 * fastest group (a busbw over the network depends little on how many hosts share it, but not on nothing).
 */
final class HalvingSearch implements PairSearch {

    static final int FIRST_GROUPS = 8;

    private final int hosts;
    private final CheckRules rules;
    private final Set<Integer> good = new TreeSet<>();
    private final List<List<Integer>> toHalve = new ArrayList<>();
    private final Set<Integer> suspects = new LinkedHashSet<>();
    private final Set<Integer> named = new TreeSet<>();
    /** A suspect whose pair with a good host was slow too. */
    private record Named(int host, double busBwGBps, int partner, double referenceGBps) { }

    private final List<Named> evidence = new ArrayList<>();
    private final List<Integer> unpaired = new ArrayList<>();
    private final List<PairResult.Group> measured = new ArrayList<>();
    private List<List<Integer>> tested = List.of();
    private List<List<Integer>> pending = List.of();
    private List<Integer> pendingSuspects = List.of();
    private int rounds;

    HalvingSearch(int hosts, CheckRules rules) {
        this.hosts = hosts;
        this.rules = rules;
        List<Integer> all = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            all.add(h);
        }
        toHalve.addAll(split(all, Math.min(FIRST_GROUPS, hosts / 2)));
    }

    @Override
    public List<List<Integer>> nextRound() {
        List<List<Integer>> round = new ArrayList<>();
        pendingSuspects = new ArrayList<>();
        Set<Integer> busy = new TreeSet<>();
        if (!toHalve.isEmpty()) {
            round.addAll(toHalve);
            toHalve.clear();
        } else if (!suspects.isEmpty()) {
            List<Integer> partners = new ArrayList<>(good);
            for (int s : List.copyOf(suspects)) {
                if (partners.isEmpty()) {
                    break;
                }
                round.add(List.of(s, partners.remove(0)));
                pendingSuspects.add(s);
                suspects.remove(s);
            }
            if (round.isEmpty()) {
                unpaired.addAll(suspects);
                suspects.clear();
            }
        }
        tested = List.copyOf(round);
        round.forEach(busy::addAll);
        // controls: the untested good hosts in groups of the tested size, measured alongside
        int size = round.isEmpty() ? 0 : round.get(0).size();
        List<Integer> free = good.stream().filter(h -> !busy.contains(h)).toList();
        List<List<Integer>> all = new ArrayList<>(round);
        for (int i = 0; size > 0 && i + size <= free.size(); i += size) {
            all.add(free.subList(i, i + size));
        }
        pending = all;
        return all;
    }

    @Override
    public void record(List<Double> busBwGBps) {
        rounds++;
        double ref = busBwGBps.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        double limit = ref * rules.failBelowPct() / 100;
        for (int i = 0; i < pending.size(); i++) {
            List<Integer> g = pending.get(i);
            double bw = busBwGBps.get(i);
            boolean slow = bw < limit;
            measured.add(new PairResult.Group(g, bw, ref, slow));
            if (i >= tested.size()) {
                continue; // a control group: its hosts are already good
            }
            if (!pendingSuspects.isEmpty()) {
                int suspect = g.get(0);
                if (slow) {
                    named.add(suspect);
                    evidence.add(new Named(suspect, bw, g.get(1), ref));
                } else {
                    good.add(suspect);
                }
            } else if (!slow) {
                good.addAll(g);
            } else if (g.size() > 3) {
                toHalve.addAll(split(g, 2));
            } else {
                suspects.addAll(g);
            }
        }
    }

    @Override
    public PairResult result(List<String> names) {
        List<String> lines = new ArrayList<>();
        for (Named n : evidence) {
            lines.add(String.format(Locale.ROOT, "%s: %.2f GB/s paired with %s, known good, below %.0f %% of its round's"
                    + " fastest group (%.2f GB/s)", names.get(n.host()), n.busBwGBps(), names.get(n.partner()),
                    rules.failBelowPct(), n.referenceGBps()));
        }
        for (int h : unpaired) {
            lines.add(names.get(h) + ": in a slow group, but no host is known good to pair it with");
        }
        return new PairResult(hosts, measured, List.copyOf(named), lines, rounds, "halving search");
    }

    /** {@code hosts} cut into {@code parts} contiguous groups whose sizes differ by at most one. */
    private static List<List<Integer>> split(List<Integer> hosts, int parts) {
        List<List<Integer>> out = new ArrayList<>();
        int start = 0;
        for (int p = 0; p < parts; p++) {
            int end = start + (hosts.size() - start) / (parts - p);
            out.add(List.copyOf(hosts.subList(start, end)));
            start = end;
        }
        return out;
    }
}
