package org.ncclharness.calibration.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.nccl.ChannelCounts;

/**
 * The channel counts NCCL's INFO lines state, per communicator size, gathered as a log streams past (part of
 * {@link LogFacts}' one pass). The counts line names no communicator: the thread that prints it
 * ({@code host:pid:tid}) also prints the communicator's {@code rank R nranks N} (Init START, the {@code comm ... nRanks}
 * line, Init COMPLETE), before or after it, so a count waits for its thread's size. Lines without that prefix give
 * counts of no known size. NCCL 2.7 and earlier print no counts line: its channel-0 ring line
 * ({@code Channel 00/02 :    0   1}) gives the ring channels and, by the ranks it lists, the size.
 */
final class ChannelLines {

    private static final Pattern COUNTS = Pattern.compile("(\\d+) coll channels, (?:(\\d+) collnet channels, )?"
            + "(?:(\\d+) nvls channels, )?(\\d+) p2p channels, (\\d+) p2p channels per peer");
    private static final Pattern RING = Pattern.compile("NCCL INFO Channel 00/(\\d+) :((?: +\\d+)+)\\s*$");
    private static final Pattern RANKS = Pattern.compile("\\brank \\d+ n[Rr]anks (\\d+)\\b");
    private static final Pattern THREAD = Pattern.compile("([\\w.-]+:\\d+:\\d+) \\[\\d+\\] NCCL INFO");

    /** Each thread's communicator size, as its last {@code nranks} line said. */
    private final Map<String, Integer> ranksOf = new HashMap<>();
    /** Counts a thread printed before any line of it said the size. */
    private final Map<String, List<ChannelCounts>> waiting = new LinkedHashMap<>();
    private final Set<ChannelCounts> counts = new LinkedHashSet<>();
    private final Set<ChannelCounts> rings = new LinkedHashSet<>();

    void accept(String line) {
        if (!line.contains("NCCL INFO")) {
            return;
        }
        Matcher r = line.contains("anks ") ? RANKS.matcher(line) : null;
        if (r != null && r.find()) {
            String thread = thread(line);
            if (thread != null) {
                int n = Integer.parseInt(r.group(1));
                ranksOf.put(thread, n);
                List<ChannelCounts> before = waiting.remove(thread);
                if (before != null) {
                    before.forEach(c -> counts.add(c.atRanks(n)));
                }
            }
            return;
        }
        Matcher c = line.contains(" coll channels, ") ? COUNTS.matcher(line) : null;
        if (c != null && c.find()) {
            ChannelCounts stated = new ChannelCounts(null, Integer.parseInt(c.group(1)), integer(c.group(2)),
                    integer(c.group(3)), Integer.parseInt(c.group(4)), Integer.parseInt(c.group(5)));
            String thread = thread(line);
            Integer n = thread == null ? null : ranksOf.get(thread);
            if (n != null || thread == null) {
                counts.add(stated.atRanks(n));
            } else {
                waiting.computeIfAbsent(thread, t -> new ArrayList<>()).add(stated);
            }
            return;
        }
        Matcher ring = line.contains("Channel 00/") ? RING.matcher(line) : null;
        if (ring != null && ring.find() && Integer.parseInt(ring.group(1)) > 0) {
            int ranks = ring.group(2).strip().split(" +").length;
            rings.add(new ChannelCounts(ranks, Integer.parseInt(ring.group(1)), null, null, null, null));
        }
    }

    /** The distinct counts, in order seen (those whose size no line said last); the ring lines' where none. */
    List<ChannelCounts> result() {
        List<ChannelCounts> out = new ArrayList<>(counts);
        waiting.values().forEach(out::addAll);
        return out.isEmpty() ? List.copyOf(rings) : List.copyOf(new LinkedHashSet<>(out));
    }

    private static String thread(String line) {
        Matcher t = THREAD.matcher(line);
        return t.find() ? t.group(1) : null;
    }

    private static Integer integer(String digits) {
        return digits == null ? null : Integer.valueOf(digits);
    }
}
