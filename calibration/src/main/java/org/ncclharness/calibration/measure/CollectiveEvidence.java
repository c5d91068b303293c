package org.ncclharness.calibration.measure;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;

/**
 * Which collective a table holds, and how many ranks ran it, from what the table shows when the log does not
 * name its program (every pre-2.17 log, most excerpts). In order: {@code redop none} means no reduction
 * (sendrecv prints its op, though); a root of 0 or more means a rooted collective, -1 an unrooted one;
 * size / (count × element size) is 1 for the collectives whose count is the whole buffer and N for the split
 * ones; then the bus factor against N (2(N−1)/N AllReduce; (N−1)/N AllGather, ReduceScatter, AllToAll, Gather,
 * Scatter, HyperCube; 1 Broadcast, Reduce, SendRecv). The factor never decides both the collective and N: when
 * neither is known from
 * elsewhere, the pairs it allows are named and the collective stays {@link Collective#UNKNOWN}.
 *
 * @param collective the decision, {@link Collective#UNKNOWN} when the evidence allows several
 * @param ranks      N when known or inferred here, else null
 * @param notes      what was inferred and from what, for the sweep's notes; when undecided, the one note of kind
 *                   {@link Note.Kind#COLLECTIVE_UNKNOWN}, which says what the rows allow and what to pass
 */
public record CollectiveEvidence(Collective collective, Integer ranks, List<Note> notes) {

    private static final Map<String, Integer> ELEMENT_BYTES = Map.ofEntries(Map.entry("int8", 1),
            Map.entry("uint8", 1), Map.entry("char", 1), Map.entry("int32", 4), Map.entry("uint32", 4),
            Map.entry("int", 4), Map.entry("uint", 4), Map.entry("int64", 8), Map.entry("uint64", 8),
            Map.entry("half", 2), Map.entry("float", 4), Map.entry("double", 8), Map.entry("bfloat16", 2),
            Map.entry("bf16", 2), Map.entry("f8e4m3", 1), Map.entry("f8e5m2", 1), Map.entry("fp8_e4m3", 1),
            Map.entry("fp8_e5m2", 1));
    /** Largest N the ratio is solved for; beyond it two decimals cannot tell N from N+1 anyway. */
    private static final int MAX_RANKS = 1 << 16;

    /** The element size of a type name as nccl-tests prints it, or 0 when unknown. */
    public static int elementBytes(String type) {
        return ELEMENT_BYTES.getOrDefault(type.toLowerCase(Locale.ROOT), 0);
    }

    /**
     * @param named    the collective the log names (its program line, a {@code *_perf} command), or null; taken
     *                 unless the rows contradict it, and then the rows win and a note says so
     * @param given    the collective the user or a dataset's metadata states ({@code --collective}), or null;
     *                 taken only where the rows leave the choice open, and only if it is one they allow
     * @param ranks    N from the device list, or null
     * @param rows     the table's rows (one type and op)
     * @param hasRedop whether the table prints a redop column
     * @param hasRoot  whether the table prints a root column
     */
    public static CollectiveEvidence decide(Collective named, Collective given, Integer ranks,
                                            List<Measurement> rows, boolean hasRedop, boolean hasRoot) {
        List<Note> notes = new ArrayList<>();
        Ratio ratio = Ratio.of(rows);
        Set<Collective> candidates = EnumSet.noneOf(Collective.class);
        for (Collective c : Collective.values()) {
            if (c.known()) {
                candidates.add(c);
            }
        }
        List<String> seen = new ArrayList<>();
        Measurement any = rows.isEmpty() ? null : rows.get(rows.size() - 1);
        if (any != null && hasRedop) {
            boolean none = any.redop().equals("none");
            candidates.removeIf(c -> c.printsOp() == none);
            seen.add("redop " + any.redop());
        }
        if (any != null && hasRoot) {
            boolean rooted = any.root() >= 0;
            candidates.removeIf(c -> c.rooted() != rooted);
            seen.add("root " + any.root());
        }
        Integer sizeRanks = null;
        Measurement counted = rows.stream().filter(m -> m.count() > 0 && elementBytes(m.type()) > 0)
                .reduce((a, b) -> b).orElse(null);
        if (counted != null) {
            long per = counted.count() * elementBytes(counted.type());
            if (counted.sizeBytes() == per) {
                candidates.removeIf(Collective::sizeIsRanksTimesCount);
                seen.add("size = count x " + elementBytes(counted.type()) + " B");
            } else if (counted.sizeBytes() % per == 0) {
                candidates.removeIf(c -> !c.sizeIsRanksTimesCount());
                sizeRanks = (int) Math.min(Integer.MAX_VALUE, counted.sizeBytes() / per);
                seen.add("size = " + sizeRanks + " x count x " + elementBytes(counted.type()) + " B");
            }
        }
        Integer n = ranks != null ? ranks : sizeRanks;
        if (ranks != null && sizeRanks != null && !ranks.equals(sizeRanks)) {
            notes.add(Note.info("size / (count x element size) = " + sizeRanks + " differs from the " + ranks
                    + " ranks listed: the list is taken as incomplete"));
            n = sizeRanks;
        }
        if (ranks != null && n.equals(ranks) && ratio != null && candidates.stream().noneMatch(c -> ratio.fits(c, ranks))) {
            notes.add(Note.info(incompleteList(ranks, ratio)));
            n = sizeRanks;
        }
        if (ratio != null) {
            seen.add(ratio.text());
            if (n != null) {
                int known = n;
                candidates.removeIf(c -> !ratio.fits(c, known));
            } else {
                candidates.removeIf(c -> ratio.dependsOnRanks(c) ? ratio.ranksFor(c).isEmpty() : !ratio.fits(c, 2));
            }
        }
        String evidence = String.join(", ", seen);
        if (named != null && named.known()) {
            if (candidates.contains(named)) {
                return chosen(named, n, ranks, ratio, notes, null);
            }
            notes.add(Note.info("the log names " + named.testName() + ", but its rows (" + evidence + ") do not fit"
                    + " it: read from the rows"));
        }
        if (candidates.size() == 1) {
            return chosen(candidates.iterator().next(), n, ranks, ratio, notes,
                    "the log does not name its test program; read as %s from its rows (" + evidence + ")");
        }
        if (given != null && given.known() && candidates.contains(given)) {
            return chosen(given, n, ranks, ratio, notes, "read as %s, as given, among what the rows allow ("
                    + alternatives(candidates, n, ratio) + ")");
        }
        String found = (given != null && given.known() ? given.testName() + " (as given) does not fit the rows: "
                : "") + (candidates.isEmpty() ? "the rows fit no collective nccl-tests knows (" + evidence + ")"
                : "the log does not name its test program and its rows (" + evidence + ") fit "
                        + alternatives(candidates, n, ratio));
        String ask = "; pass " + Advice.usage(Setting.COLLECTIVE);
        long corrupt = WrongRows.count(rows);
        // whatever the collective, nccl-tests' own data check failed: say it where the table is refused
        String corruptText = corrupt == 0 ? "" : "; " + corrupt + " of its " + rows.size() + " rows report #wrong > 0:"
                + " nccl-tests' data check failed, so the results are corrupt whatever the collective";
        notes.add(new Note(Note.Kind.COLLECTIVE_UNKNOWN, found + ask + corruptText, found + corruptText));
        return new CollectiveEvidence(Collective.UNKNOWN, n, notes);
    }

    /** The decision c, with N as known or as the ratio gives it for c, and a note of how it was made. */
    private static CollectiveEvidence chosen(Collective c, Integer n, Integer listed, Ratio ratio, List<Note> notes,
                                             String how) {
        Integer ranks = n;
        if (ranks == null && ratio != null) {
            Set<Integer> ns = ratio.ranksFor(c);
            if (ns.size() == 1) {
                ranks = ns.iterator().next();
            }
        }
        if (how != null) {
            notes.add(Note.info(String.format(Locale.ROOT, how, c.testName())));
        }
        if (ranks != null && listed == null) {
            notes.add(Note.info("N = " + ranks + " ranks, inferred from " + (n != null ? "size / (count x element"
                    + " size)" : ratio.text() + " (" + c.testName() + ")") + "; no device list says it"));
        }
        return new CollectiveEvidence(c, ranks, notes);
    }

    private static String incompleteList(int listed, Ratio ratio) {
        return "the device list shows " + listed + " ranks, but " + ratio.text() + " fits no collective at "
                + listed + ": the list is taken as incomplete (an excerpt?)";
    }

    private static String alternatives(Set<Collective> candidates, Integer n, Ratio ratio) {
        Map<String, List<String>> byRanks = new LinkedHashMap<>();
        for (Collective c : candidates) {
            String key = "";
            if (n == null && ratio != null && ratio.dependsOnRanks(c)) {
                key = " with " + ratio.ranksFor(c).stream().map(String::valueOf).collect(Collectors.joining(" or "))
                        + " ranks";
            }
            byRanks.computeIfAbsent(key, k -> new ArrayList<>()).add(c.testName());
        }
        return byRanks.entrySet().stream().map(e -> String.join("/", e.getValue()) + e.getKey())
                .collect(Collectors.joining(" or "));
    }

    /**
     * The bus factor a row shows: busbw over size / time, which is the same in every generation (the ≤ 2.0
     * all_gather and reduce_scatter printed algbw = (N−1)/N × size / time and busbw = algbw; today's print algbw
     * = size / time and busbw = (N−1)/N × algbw). Where algbw is size / time, busbw / algbw is used, as it is
     * printed to two decimals and so more precise than a time of a few significant digits. Taken from the row
     * with the largest algbw, with the interval the printed rounding allows.
     */
    private record Ratio(double value, double low, double high, String what) {

        private static final double BW_ULP = 0.005;

        static Ratio of(List<Measurement> rows) {
            Half best = null;
            long bestSize = 0;
            for (Measurement m : rows) {
                for (Half h : new Half[] {m.outOfPlace(), m.inPlace()}) {
                    if (h.algBwGBps() != null && h.busBwGBps() != null && h.algBwGBps() > 0 && h.busBwGBps() > 0
                            && (best == null || h.algBwGBps() > best.algBwGBps())) {
                        best = h;
                        bestSize = m.sizeBytes();
                    }
                }
            }
            if (best == null || best.algBwGBps() < 0.1) {
                return null;
            }
            double a = best.algBwGBps();
            double b = best.busBwGBps();
            Ratio printed = new Ratio(b / a, (b - BW_ULP) / (a + BW_ULP), (b + BW_ULP) / (a - BW_ULP), "busbw/algbw");
            if (best.timeUs() == null || best.timeUs() <= 0 || bestSize <= 0) {
                return printed;
            }
            double t = best.timeUs();
            // At least four significant digits: nccl-tests prints times as wide as %7.2f allows
            double tUlp = Math.max(0.005, 0.5 * Math.pow(10, Math.floor(Math.log10(t)) - 3));
            double st = bestSize / (t * 1e3);
            double stLow = bestSize / ((t + tUlp) * 1e3);
            double stHigh = bestSize / ((t - tUlp) * 1e3);
            if (a + BW_ULP >= stLow && a - BW_ULP <= stHigh || !TimeAlgbwAgreement.printed(st / a)) {
                return printed;
            }
            return new Ratio(b / st, (b - BW_ULP) / stHigh, (b + BW_ULP) / stLow, "busbw x time / size");
        }

        boolean fits(Collective c, int ranks) {
            double r = measure(c, ranks);
            return r >= low - 1e-12 && r <= high + 1e-12;
        }

        /** The rank counts (2 or more) whose busbw/algbw for c falls in the interval; empty when none. */
        Set<Integer> ranksFor(Collective c) {
            Set<Integer> ns = new TreeSet<>();
            if (!dependsOnRanks(c)) {
                return ns;
            }
            for (int n = 2; n <= MAX_RANKS; n++) {
                if (fits(c, n)) {
                    ns.add(n);
                } else if (measure(c, n) > high) {
                    break;
                }
            }
            return ns;
        }

        /** What this ratio is for c at N ranks: busbw/algbw, or busbw over size / time. */
        private double measure(Collective c, int ranks) {
            return what.equals("busbw/algbw") ? c.busOverAlg(ranks) : c.busFactor(ranks);
        }

        /** Whether this ratio changes with N for c (not for broadcast, reduce, sendrecv; hypercube's busbw/algbw). */
        boolean dependsOnRanks(Collective c) {
            return measure(c, 2) != measure(c, 3);
        }

        String text() {
            return what + " = " + String.format(Locale.ROOT, "%.4f", value);
        }
    }
}
