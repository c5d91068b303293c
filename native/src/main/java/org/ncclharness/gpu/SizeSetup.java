package org.ncclharness.gpu;

import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.PeerTraffic;

/**
 * nccl-tests' {@code setupArgs} for one size: the per-rank element counts from {@link Collective#counts}, byte sizes,
 * and where an in-place operation's pointers go inside the receive buffer (each collective's GetCollByteCount):
 * AllGather, Gather and HyperCube send from {@code recvbuf + rank·sendBytes}; ReduceScatter and Scatter receive into
 * {@code recvbuf + rank·recvBytes}; every other collective uses the buffer start for both.
 *
 * @param sizeBytes    the requested size (the {@code -b..-e} value)
 * @param counts       per-rank counts and the printed size
 * @param sendBytes    bytes each rank sends
 * @param recvBytes    bytes each rank receives (nccl-tests' {@code expectedBytes})
 */
public record SizeSetup(long sizeBytes, Collective collective, DataType type, Collective.ByteCounts counts,
                        long sendBytes, long recvBytes) {

    public static SizeSetup of(Collective collective, DataType type, long sizeBytes, int nranks) {
        return of(collective, type, sizeBytes, nranks, PeerTraffic.NCCL_TESTS_DEFAULT);
    }

    /** As {@link #of(Collective, DataType, long, int)} with alltoallv's per-peer pattern. */
    public static SizeSetup of(Collective collective, DataType type, long sizeBytes, int nranks, PeerTraffic traffic) {
        Collective.ByteCounts c = collective.counts(sizeBytes, type.bytes(), nranks, traffic);
        return new SizeSetup(sizeBytes, collective, type, c, c.sendElements() * type.bytes(),
                c.recvElements() * type.bytes());
    }

    /** Per-iteration buffer stride: {@code max(sendBytes, expectedBytes)}. */
    public long strideBytes() {
        return Math.max(sendBytes, recvBytes);
    }

    /** In-place send pointer's offset for {@code rank}. */
    public long sendInPlaceOffset(int rank) {
        return switch (collective) {
            case ALL_GATHER, GATHER, HYPERCUBE -> rank * sendBytes;
            default -> 0;
        };
    }

    /** In-place receive pointer's offset for {@code rank}. */
    public long recvInPlaceOffset(int rank) {
        return collective == Collective.REDUCE_SCATTER || collective == Collective.SCATTER ? rank * recvBytes : 0;
    }

    /** Bytes of the receive buffer an in-place operation uses (the whole gathered/scattered array). */
    public long inPlaceFootprint() {
        return Math.max(sendBytes, recvBytes);
    }
}
