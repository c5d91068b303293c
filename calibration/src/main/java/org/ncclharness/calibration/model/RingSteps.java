package org.ncclharness.calibration.model;

import org.ncclharness.calibration.measure.Collective;

/**
 * How each collective moves its bytes, step by step, on one domain and across d domains of g GPUs (N = d·g): the
 * one table the step-counting models read. Sequential steps per collective follow NCCL's nsteps and nInterSteps in
 * src/graph/tuning.cc (and ASTRA-sim's astraccl Ring.cc): AllReduce 2(N−1) (reduce-scatter then all-gather),
 * AllGather and ReduceScatter N−1, the pipelined Broadcast and Reduce N−1 hops, the point-to-point collectives N−1
 * peer exchanges, SendRecv one. The bytes each rank moves per step are nccl-tests' bus factor (its src/*.cu GetBw),
 * except where a point-to-point collective crosses domains: there only the exchanges with other domains' peers,
 * (N−g)/N of the bytes, use the slower tier.
 */
public final class RingSteps {

    private RingSteps() {
    }

    /** The ways the collectives move data; each collective follows one ({@link #of(Collective)}). */
    public enum Pattern {
        /**
         * AllReduce: reduce-scatter then all-gather round a ring, 2(N−1) steps of which 2(d−1) cross a domain
         * boundary (NCCL's nInterSteps); NCCL's Tree is a candidate beside it, across domains.
         */
        RING_TWICE,
        /** AllGather, ReduceScatter: one pass round a ring, N−1 steps, d−1 of them across domains. */
        RING,
        /**
         * Broadcast, Reduce: a pipelined chain from the root along the ring, N−1 hops, d−1 of them across domains;
         * every byte crosses each link once, so the bandwidth is about one link's (bus factor 1).
         */
        CHAIN,
        /**
         * AllToAll(v), Gather, Scatter: point to point, N−1 peer exchanges, N−g of them with peers in other domains,
         * which carry (N−g)/N of a rank's bytes over the network (the rest stays on the faster intra-domain links).
         */
        PEER_EXCHANGE,
        /**
         * HyperCube: ⌈log2 N⌉ exchange rounds, the last ⌈log2 d⌉ across domains; those carry (N−g)/N of the
         * gathered bytes, as a peer exchange's do.
         */
        HYPERCUBE,
        /** SendRecv: one exchange with a neighbour, across a domain boundary where there is one. */
        PAIR;

        /** Sequential steps at N ranks (NCCL's nsteps). */
        public int steps(int ranks) {
            return switch (this) {
                case RING_TWICE -> 2 * (ranks - 1);
                case RING, CHAIN, PEER_EXCHANGE -> ranks - 1;
                // log2(N) exchange rounds, the hypercube's whole point
                case HYPERCUBE -> log2Ceil(ranks);
                case PAIR -> 1;
            };
        }

        /** Of {@link #steps}, those that cross a domain boundary on d domains of g GPUs (NCCL's nInterSteps). */
        public int netSteps(TwoTierConfig c) {
            int d = c.domains();
            if (d == 1) {
                return 0;
            }
            return switch (this) {
                case RING_TWICE -> 2 * (d - 1);
                case RING, CHAIN -> d - 1;
                case PEER_EXCHANGE -> c.ranks() - c.gpusPerDomain();
                case HYPERCUBE -> log2Ceil(d);
                case PAIR -> 1;
            };
        }

        /**
         * The bytes per rank, as a share of the printed size, that cross the slowest tier the steps use: the
         * collective's bus factor f on one domain and for the ring and chain patterns (a ring crosses every boundary
         * with all of them); across domains (N−g)/N for a peer exchange or hypercube, whose exchanges with peers of
         * the same domain stay on its links.
         */
        public double busCoefficient(Collective collective, TwoTierConfig c) {
            boolean networkShare = (this == PEER_EXCHANGE || this == HYPERCUBE) && c.domains() > 1;
            return networkShare ? (double) (c.ranks() - c.gpusPerDomain()) / c.ranks()
                    : collective.busFactor(c.ranks());
        }

        /** Whether NCCL's Tree is a candidate beside the ring across domains (NCCL's Tree is AllReduce's alone). */
        public boolean treeCandidate() {
            return this == RING_TWICE;
        }
    }

    /** The configuration every ring model needs: two ranks and one hop per step at least. */
    public static void requireRing(int ranks, int hops) {
        if (ranks < 2) {
            throw new IllegalArgumentException("a ring needs at least 2 ranks, got " + ranks);
        }
        if (hops < 1) {
            throw new IllegalArgumentException("hops per step must be at least 1, got " + hops);
        }
    }

    /** The pattern a collective follows: the table itself. */
    public static Pattern of(Collective c) {
        return switch (c) {
            case ALL_REDUCE -> Pattern.RING_TWICE;
            case ALL_GATHER, REDUCE_SCATTER -> Pattern.RING;
            case BROADCAST, REDUCE -> Pattern.CHAIN;
            case ALL_TO_ALL, ALL_TO_ALL_V, GATHER, SCATTER -> Pattern.PEER_EXCHANGE;
            case HYPERCUBE -> Pattern.HYPERCUBE;
            case SEND_RECV -> Pattern.PAIR;
            case UNKNOWN -> throw new IllegalArgumentException("no ring steps for an unknown collective");
        };
    }

    /** Sequential steps of a collective at N ranks. */
    public static int of(Collective c, int ranks) {
        return of(c).steps(ranks);
    }

    /** ⌈log2 n⌉ for n ≥ 1. */
    private static int log2Ceil(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }
}
