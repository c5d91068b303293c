package org.ncclharness.gpu;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.PeerTraffic;

/**
 * nccl-tests' {@code -c}: initialise every rank's buffers with known values, run one operation, compare the
 * receive buffer with the expected result on the host and count mismatching elements (#wrong). Values come
 * from {@link CheckPattern}; this class knows, per collective, which input element lands where. Transfers go
 * through a staging buffer of bounded size, so checking a multi-GiB size needs no multi-GiB host memory.
 *
 * <p>In-place AllToAll, AlltoAllv and SendRecv are not checked (nccl-tests prints N/A: in-place is not meaningful
 * for them); a non-root rank's Reduce output must be untouched.
 */
final class DataCheck {
    private static final int STAGING_BYTES = 8 << 20;

    private final Collective collective;
    private final DataType type;
    private final int root;
    private final int nranks;
    private final ReduceOp op;
    private final PeerTraffic traffic;
    private final ByteBuffer staging;
    private CheckPattern pattern;

    /**
     * @throws IllegalArgumentException when no exact check exists for this type, op and rank count (the
     *                                  message says so and suggests -c 0)
     */
    DataCheck(Collective collective, DataType type, ReduceOp op, int root, int nranks, long maxBytes) {
        this(collective, type, op, root, nranks, maxBytes, PeerTraffic.NCCL_TESTS_DEFAULT);
    }

    DataCheck(Collective collective, DataType type, ReduceOp op, int root, int nranks, long maxBytes,
              PeerTraffic traffic) {
        this.collective = collective;
        this.traffic = traffic;
        this.type = type;
        this.root = root;
        this.nranks = nranks;
        this.op = collective.reduces() ? op : null;
        this.pattern = new CheckPattern(type, this.op, nranks, 0);
        this.staging = ByteBuffer.allocateDirect((int) Math.min(STAGING_BYTES, Math.max(8, maxBytes)))
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Switches to the values of another repetition (nccl-tests seeds the timing init with 99, checks with rep). */
    DataCheck seed(long seed) {
        this.pattern = new CheckPattern(type, op, nranks, seed);
        return this;
    }

    /** Whether this placement is checked at all; false means #wrong is N/A. */
    boolean checks(boolean inPlace) {
        return !(inPlace && (collective == Collective.ALL_TO_ALL || collective == Collective.ALL_TO_ALL_V
                || collective == Collective.SEND_RECV));
    }

    /** Fills local rank {@code local}'s buffers for one checked operation of {@code setup}. */
    void initialise(CollectiveBackend be, int local, SizeSetup setup, boolean inPlace) {
        int rank = be.rank(local);
        if (inPlace) {
            be.zero(local, true, setup.inPlaceFootprint());
            upload(be, local, true, setup.sendInPlaceOffset(rank), rank, setup.counts().sendElements());
        } else {
            be.zero(local, true, setup.recvBytes());
            upload(be, local, false, 0, rank, setup.counts().sendElements());
        }
    }

    /** Counts the wrong elements of local rank {@code local}'s result. */
    long countWrong(CollectiveBackend be, int local, SizeSetup setup, boolean inPlace) {
        int rank = be.rank(local);
        long offset = inPlace ? setup.recvInPlaceOffset(rank) : 0;
        long elems = setup.counts().recvElements();
        long blockElems = Math.max(1, setup.counts().paramCount());
        Segments segments = collective == Collective.ALL_TO_ALL_V ? new Segments(rank, setup) : null;
        int perChunk = staging.capacity() / type.bytes();
        long wrong = 0;
        for (long first = 0; first < elems; first += perChunk) {
            int n = (int) Math.min(perChunk, elems - first);
            staging.clear().limit(n * type.bytes());
            be.download(local, offset + first * type.bytes(), staging);
            for (int i = 0; i < n; i++) {
                long k = first + i;
                long got = readBits(staging, i * type.bytes());
                long want = segments != null ? segments.expected(k) : expected(rank, k, inPlace, blockElems);
                if (!pattern.matches(got, want, isReducedAvg(rank))) {
                    wrong++;
                }
            }
        }
        return wrong;
    }

    private boolean isReducedAvg(int rank) {
        return pattern.op() == ReduceOp.AVG && (collective != Collective.REDUCE || rank == root);
    }

    /**
     * Bits rank {@code rank} must find at receive index {@code k}; {@code base} is the per-rank block of the
     * split collectives (nccl-tests' {@code base}, the parameter count).
     */
    long expected(int rank, long k, boolean inPlace, long base) {
        return switch (collective) {
            case ALL_REDUCE -> pattern.reduced(k);
            case REDUCE -> rank == root ? pattern.reduced(k) : (inPlace ? pattern.input(rank, k) : 0L);
            case BROADCAST -> pattern.input(root, k);
            case ALL_GATHER, HYPERCUBE -> pattern.input((int) (k / base), k % base);
            // the root gathers every block; elsewhere the receive buffer keeps what it held: zeros, and in place the
            // rank's own block
            case GATHER -> rank == root || (inPlace && k / base == rank) ? pattern.input((int) (k / base), k % base) : 0L;
            // every rank receives its block of the root's array
            case SCATTER -> pattern.input(root, rank * base + k);
            case REDUCE_SCATTER -> pattern.reduced(rank * base + k);
            case ALL_TO_ALL -> pattern.input((int) (k / base), rank * base + k % base);
            case ALL_TO_ALL_V -> throw new IllegalStateException("alltoallv's receive layout is its Segments'");
            case SEND_RECV -> pattern.input(Math.floorMod(rank - 1, nranks), k);
            case UNKNOWN -> throw new IllegalArgumentException("an unknown collective cannot be checked");
        };
    }

    /**
     * What one rank of alltoallv receives (AlltoAllvInitData's expected buffer): each source's segment in source
     * order, each a slice of that source's send stream starting after what it sends the lower ranks; zeros after
     * the last segment, up to the busiest rank's receive count.
     */
    private final class Segments {
        private final long[] startElems = new long[nranks + 1];
        private final long[] sourceOffsetElems = new long[nranks];

        Segments(int rank, SizeSetup setup) {
            long total = setup.counts().paramCount() * nranks * type.bytes();
            for (int src = 0; src < nranks; src++) {
                startElems[src + 1] = startElems[src] + traffic.peerBytes(src, rank, nranks, total) / type.bytes();
                for (int lower = 0; lower < rank; lower++) {
                    sourceOffsetElems[src] += traffic.peerBytes(src, lower, nranks, total) / type.bytes();
                }
            }
        }

        long expected(long k) {
            for (int src = 0; src < nranks; src++) {
                if (k < startElems[src + 1]) {
                    return pattern.input(src, sourceOffsetElems[src] + k - startElems[src]);
                }
            }
            return 0L;
        }
    }

    private void upload(CollectiveBackend be, int local, boolean recvBuffer, long offset, int rank, long elems) {
        int perChunk = staging.capacity() / type.bytes();
        for (long first = 0; first < elems; first += perChunk) {
            int n = (int) Math.min(perChunk, elems - first);
            staging.clear();
            for (int i = 0; i < n; i++) {
                writeBits(staging, i * type.bytes(), pattern.input(rank, first + i));
            }
            staging.limit(n * type.bytes());
            be.upload(local, recvBuffer, offset + first * type.bytes(), staging);
        }
    }

    private void writeBits(ByteBuffer b, int at, long bits) {
        switch (type.bytes()) {
            case 1 -> b.put(at, (byte) bits);
            case 2 -> b.putShort(at, (short) bits);
            case 4 -> b.putInt(at, (int) bits);
            default -> b.putLong(at, bits);
        }
    }

    private long readBits(ByteBuffer b, int at) {
        return switch (type.bytes()) {
            case 1 -> b.get(at) & 0xFFL;
            case 2 -> b.getShort(at) & 0xFFFFL;
            case 4 -> b.getInt(at) & 0xFFFF_FFFFL;
            default -> b.getLong(at);
        };
    }
}
