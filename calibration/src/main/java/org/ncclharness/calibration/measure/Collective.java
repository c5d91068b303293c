package org.ncclharness.calibration.measure;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One value per collective, described the way nccl-tests describes it: how many elements each rank sends and
 * receives for a given size, which size column nccl-tests prints, and the bus-bandwidth factor that turns
 * algorithm bandwidth into a per-link figure comparable across N. The timing loop never needs to know more.
 * (nccl-tests: each collective's GetCollByteCount and GetBw in src/*.cu; doc/PERFORMANCE.md.)
 */
public enum Collective {
    ALL_REDUCE("all_reduce", "allreduce", "AllReduce", false, true, BusFactor.TWO_N_MINUS_1_OVER_N, Split.NONE),
    ALL_GATHER("all_gather", "allgather", "AllGather", false, false, BusFactor.N_MINUS_1_OVER_N, Split.RECV_N),
    REDUCE_SCATTER("reduce_scatter", "reducescatter", "ReduceScatter", false, true, BusFactor.N_MINUS_1_OVER_N, Split.SEND_N),
    BROADCAST("broadcast", "broadcast", "Broadcast", true, false, BusFactor.ONE, Split.NONE),
    REDUCE("reduce", "reduce", "Reduce", true, true, BusFactor.ONE, Split.NONE),
    ALL_TO_ALL("alltoall", "alltoall", "AllToAll", false, false, BusFactor.N_MINUS_1_OVER_N, Split.BOTH_N),
    /**
     * alltoallv_perf: per-peer counts from a {@link PeerTraffic} pattern, one grouped send and receive per peer.
     * Its size, algbw and busbw are those of the rank that moves the most bytes (AlltoAllvGetBw).
     */
    ALL_TO_ALL_V("alltoallv", "alltoallv", "AlltoAllv", false, false, BusFactor.N_MINUS_1_OVER_N, Split.PER_PEER),
    SEND_RECV("sendrecv", "sendrecv", "SendRecv", false, false, BusFactor.ONE, Split.NONE),
    GATHER("gather", "gather", "Gather", true, false, BusFactor.N_MINUS_1_OVER_N, Split.RECV_N),
    SCATTER("scatter", "scatter", "Scatter", true, false, BusFactor.N_MINUS_1_OVER_N, Split.SEND_N),
    /**
     * hypercube_perf: each rank's block travels log2(N) exchange rounds. nccl-tests counts (N-1)/N of the printed
     * size as its algbw and uses busbw = algbw, so busbw relative to size/time is (N-1)/N like AllGather's.
     */
    HYPERCUBE("hypercube", "hypercube", "HyperCube", false, false, BusFactor.N_MINUS_1_OVER_N, Split.RECV_N),
    /**
     * A table whose evidence does not decide its collective (an excerpt without the program name whose rows fit
     * several). It has no bus factor: nothing that needs one may use it, and readers say which ones it could be.
     */
    UNKNOWN("unknown", "unknown", "unknown", false, false, BusFactor.UNDEFINED, Split.NONE);

    /** nccl-tests binary stem: {@code all_reduce} for {@code all_reduce_perf}. */
    private final String testName;
    /** Our command-line spelling: {@code --collective allreduce}. */
    private final String cliName;
    /** NCCL's function name as it appears in NCCL_DEBUG TUNING lines and NCCL_ALGO prefixes. */
    private final String ncclName;
    private final boolean rooted;
    private final boolean reduces;
    private final BusFactor busFactor;
    private final Split split;

    Collective(String testName, String cliName, String ncclName, boolean rooted, boolean reduces,
               BusFactor busFactor, Split split) {
        this.testName = testName;
        this.cliName = cliName;
        this.ncclName = ncclName;
        this.rooted = rooted;
        this.reduces = reduces;
        this.busFactor = busFactor;
        this.split = split;
    }

    public String testName() { return testName; }
    public String cliName() { return cliName; }
    public String ncclName() { return ncclName; }
    /** Whether the collective has a root rank (the {@code root} column is not -1). */
    public boolean rooted() { return rooted; }
    /** Whether the collective applies a reduction operator (else nccl-tests prints {@code none}). */
    public boolean reduces() { return reduces; }

    /**
     * Whether nccl-tests prints an op name in the redop column: the reducing collectives, and sendrecv, which
     * loops over the ops without applying them. The others print {@code none} (hypercube and ≤ 2.0 alltoall
     * leave it blank).
     */
    public boolean printsOp() {
        return reduces || this == SEND_RECV;
    }

    /** False only for {@link #UNKNOWN}. */
    public boolean known() { return this != UNKNOWN; }

    /** What the harness's own timing loop runs: every program of nccl-tests 2.19.6 this table names. */
    public boolean runnable() {
        return known();
    }

    /**
     * algbw as a fraction of printed size / time. 1 for every collective but hypercube, whose algbw counts the
     * (N-1)/N of the gathered bytes that actually move (nccl-tests' HyperCubeGetBw).
     */
    public double algFactor(int ranks) {
        return this == HYPERCUBE ? (double) (ranks - 1) / ranks : 1.0;
    }

    /**
     * busbw / algbw for N ranks (nccl-tests A.5): 2(N-1)/N, (N-1)/N or 1. A reader that sees both columns
     * compares their ratio with this to tell collectives and rank counts apart.
     */
    public double busOverAlg(int ranks) {
        return busFactor(ranks) / algFactor(ranks);
    }

    /** How many times larger the printed size is than count × element size: 1, or N for the split collectives. */
    public boolean sizeIsRanksTimesCount() {
        return split != Split.NONE;
    }

    /** busbw = (printed size / time) × factor (nccl-tests A.5; for all but hypercube that is algbw × factor). */
    public double busFactor(int ranks) {
        return busFactor.of(ranks);
    }

    /**
     * busbw in GB/s from the printed size and a time per operation: algbw = S / t / 1e9, busbw = algbw × factor
     * (nccl-tests A.5). The one place this definition lives.
     */
    public double busBwGBps(double bytes, double timeUs, int ranks) {
        return bytes / (timeUs * 1e3) * busFactor(ranks);
    }

    /** The same definition solved for time: t = S × factor / busbw, in µs. */
    public double timeUs(double bytes, double busBwGBps, int ranks) {
        return bytes * busFactor(ranks) / (busBwGBps * 1e3);
    }

    /**
     * Element counts for one size, as nccl-tests computes them (A.2): {@code count = bytes / eltSize}, then
     * per-collective splitting with the 16-byte alignment of v2.13.12+; alltoallv with nccl-tests' default pattern.
     */
    public ByteCounts counts(long bytes, int eltSize, int ranks) {
        return counts(bytes, eltSize, ranks, PeerTraffic.NCCL_TESTS_DEFAULT);
    }

    /** As {@link #counts(long, int, int)}, with alltoallv's per-peer pattern ({@code traffic}; the others ignore it). */
    public ByteCounts counts(long bytes, int eltSize, int ranks, PeerTraffic traffic) {
        if (!known()) {
            throw new IllegalStateException("the collective is unknown: no element counts");
        }
        long count = bytes / eltSize;
        long align = Math.max(1, 16 / eltSize);
        long base = ((count / ranks) / align) * align;
        return switch (split) {
            case NONE -> new ByteCounts(count, count, count, count * eltSize);
            case RECV_N -> new ByteCounts(base, base, base * ranks, base * ranks * eltSize);
            case SEND_N -> new ByteCounts(base, base * ranks, base, base * ranks * eltSize);
            case BOTH_N -> new ByteCounts(base, base * ranks, base * ranks, base * ranks * eltSize);
            case PER_PEER -> traffic.counts(bytes, eltSize, ranks);
        };
    }

    /** The binaries' suffix a name may carry; compiled once, as every CSV row names its collective. */
    private static final Pattern PERF_SUFFIX = Pattern.compile("_perf(?:_mpi)?$");

    /** Finds a collective by any of its spellings (all_reduce, allreduce, AllReduce, all_reduce_perf, all_reduce_perf_mpi). */
    public static Optional<Collective> byName(String name) {
        String n = PERF_SUFFIX.matcher(name.trim().toLowerCase(Locale.ROOT)).replaceFirst("").replace("-", "_");
        return Arrays.stream(values())
                .filter(c -> c.testName.equals(n) || c.cliName.equals(n.replace("_", ""))
                        || c.ncclName.toLowerCase(Locale.ROOT).equals(n))
                .findFirst();
    }

    /**
     * Per-rank element counts and the size nccl-tests prints.
     *
     * @param paramCount the per-rank parameter count nccl-tests prints in its {@code count} column
     * @param sendElements elements each rank sends
     * @param recvElements elements each rank receives
     * @param printedBytes the {@code size} column: max(send, recv) bytes
     */
    public record ByteCounts(long paramCount, long sendElements, long recvElements, long printedBytes) { }

    private enum Split { NONE, RECV_N, SEND_N, BOTH_N, PER_PEER }

    private enum BusFactor {
        TWO_N_MINUS_1_OVER_N { double of(int n) { return 2.0 * (n - 1) / n; } },
        N_MINUS_1_OVER_N { double of(int n) { return (double) (n - 1) / n; } },
        ONE { double of(int n) { return 1.0; } },
        UNDEFINED { double of(int n) { throw new IllegalStateException("the collective is unknown: no bus factor"); } };

        abstract double of(int n);
    }
}
