package org.ncclharness.calibration.nccl;

import java.util.List;
import java.util.Optional;

/**
 * The channels one NCCL communicator set up, as its NCCL_DEBUG=INFO lines print them
 * ({@code 24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer}; the
 * logs of NCCL 2.9 to 2.16 omit the collnet and nvls counts, those of 2.5 and 2.7 print only the ring lines
 * {@code Channel 00/24 :    0   1   2   3}). A count the log does not print is null.
 *
 * @param ranks      the communicator's size (its {@code nranks}), null where the lines do not say which one printed it
 * @param coll       the ring/tree channels of every collective: the count NCCL's tuner divides bandwidth over
 * @param collnet    the CollNet (SHARP) channels, null where not printed
 * @param nvls       the NVLS (NVLink SHARP) channels, null where not printed: more than 0 means NCCL had NVLS
 * @param p2p        the send/receive channels, null where not printed
 * @param p2pPerPeer the send/receive channels to each peer, null where not printed
 */
public record ChannelCounts(Integer ranks, int coll, Integer collnet, Integer nvls, Integer p2p, Integer p2pPerPeer) {

    public ChannelCounts {
        if (coll < 1) {
            throw new IllegalArgumentException("a communicator has at least 1 coll channel, got " + coll);
        }
        if (ranks != null && ranks < 1) {
            throw new IllegalArgumentException("a communicator has at least 1 rank, got " + ranks);
        }
    }

    /**
     * The channels of the communicator of {@code ranks} ranks, the tested one, among a log's counts: those printed
     * with that size, or where no count's size is known, those of unknown size. Empty where the log prints none for
     * it, or where two communicators of that size printed different counts (the log does not say which was measured).
     */
    public static Optional<ChannelCounts> forRanks(List<ChannelCounts> logged, int ranks) {
        List<ChannelCounts> sized = logged.stream().filter(c -> c.ranks() != null && c.ranks() == ranks).toList();
        List<ChannelCounts> candidates = !sized.isEmpty() ? sized
                : logged.stream().allMatch(c -> c.ranks() == null) ? logged : List.of();
        return candidates.stream().map(c -> c.atRanks(null)).distinct().count() == 1
                ? Optional.of(candidates.get(0)) : Optional.empty();
    }

    /** Whether the lines state that NCCL set up NVLS channels; empty where they do not print the count. */
    public Optional<Boolean> nvlsAvailable() {
        return nvls == null ? Optional.empty() : Optional.of(nvls > 0);
    }

    /** The same counts, printed by a communicator of {@code n} ranks. */
    public ChannelCounts atRanks(Integer n) {
        return new ChannelCounts(n, coll, collnet, nvls, p2p, p2pPerPeer);
    }

    /** One line for a report: {@code 24 coll, 0 nvls, 32 p2p (32 per peer) channels}. */
    public String describe() {
        StringBuilder b = new StringBuilder().append(coll).append(" coll");
        if (collnet != null) {
            b.append(", ").append(collnet).append(" collnet");
        }
        if (nvls != null) {
            b.append(", ").append(nvls).append(" nvls");
        }
        if (p2p != null) {
            b.append(", ").append(p2p).append(" p2p");
            if (p2pPerPeer != null) {
                b.append(" (").append(p2pPerPeer).append(" per peer)");
            }
        }
        return b.append(" channels").toString();
    }
}
