package org.ncclharness.calibration.measure;

import java.util.Arrays;

/**
 * How nccl-tests 2.19.6's alltoallv_perf splits each rank's bytes among its peers (src/alltoallv.cu): either the
 * generated distance-weighted pattern, where rank i sends rank j a blend of {@code total/N} (uniform) and
 * {@code distance·total/(N(N-1)/2)} with {@code distance = (j-i) mod N}, weighted by the spread (0 uniform, 1 fully
 * distance-weighted; every rank sends and receives the same total), or an explicit traffic matrix whose cell
 * {@code [i][j]} is the bytes rank i sends rank j. Every per-peer figure is rounded down to 16 bytes, as there.
 *
 * @param spread      NCCL_TESTS_ALLTOALLV_SPREAD, clamped to 0..1 (unused with a matrix)
 * @param matrixBytes row-major per-peer bytes, already scaled and aligned; empty for the generated pattern
 * @param matrixDim   the matrix's side; 0 for the generated pattern
 */
public record PeerTraffic(double spread, long[] matrixBytes, int matrixDim) {
    /** nccl-tests' default: no matrix file, spread 1.0. */
    public static final PeerTraffic NCCL_TESTS_DEFAULT = distanceWeighted(1.0);

    private static final long ALIGN_MASK = ~15L;

    public PeerTraffic {
        matrixBytes = matrixBytes.clone();
        if (matrixBytes.length != (long) matrixDim * matrixDim) {
            throw new IllegalArgumentException("a " + matrixDim + "x" + matrixDim + " matrix needs "
                    + (long) matrixDim * matrixDim + " cells, got " + matrixBytes.length);
        }
    }

    /** The generated pattern; the spread is clamped to 0..1 as nccl-tests clamps it. */
    public static PeerTraffic distanceWeighted(double spread) {
        return new PeerTraffic(Math.max(0.0, Math.min(1.0, spread)), new long[0], 0);
    }

    /**
     * A square traffic matrix in bytes, each cell scaled ({@code NCCL_TESTS_ALLTOALLV_MATRIX_SCALE}, negative
     * counts as 0) and rounded down to 16 bytes.
     */
    public static PeerTraffic matrix(double[][] rows, double scale) {
        int dim = rows.length;
        long[] cells = new long[dim * dim];
        double s = Math.max(0.0, scale);
        for (int i = 0; i < dim; i++) {
            if (rows[i].length != dim) {
                throw new IllegalArgumentException("row " + i + " has " + rows[i].length + " values, expected " + dim);
            }
            for (int j = 0; j < dim; j++) {
                cells[i * dim + j] = ((long) (rows[i][j] * s)) & ALIGN_MASK;
            }
        }
        return new PeerTraffic(1.0, cells, dim);
    }

    public boolean isMatrix() {
        return matrixDim > 0;
    }

    @Override
    public long[] matrixBytes() {
        return matrixBytes.clone();
    }

    /**
     * Bytes rank {@code from} sends rank {@code to} when each rank's total is {@code totalBytes} (ignored with a
     * matrix): nccl-tests' AlltoAllvGetPeerBytesDistanceWeighted / ...FromMatrix.
     */
    public long peerBytes(int from, int to, int nranks, long totalBytes) {
        if (isMatrix()) {
            return matrixBytes[from * matrixDim + to];
        }
        if (nranks == 1) {
            return totalBytes & ALIGN_MASK;
        }
        int distance = Math.floorMod(to - from, nranks);
        long sumDistances = (long) nranks * (nranks - 1) / 2;
        double uniform = (double) totalBytes / nranks;
        double weighted = (double) distance * totalBytes / sumDistances;
        return ((long) ((1.0 - spread) * uniform + spread * weighted)) & ALIGN_MASK;
    }

    /**
     * nccl-tests' AlltoAllvGetCollByteCount for {@code bytes} (the -b..-e value): the count column is the per-peer
     * share {@code (count/N)} aligned to 16 bytes (0 with a matrix), and the send/receive counts are those of the
     * rank that sends / receives the most, which also makes the printed size and the bandwidths.
     */
    public Collective.ByteCounts counts(long bytes, int eltSize, int nranks) {
        long align = Math.max(1, 16 / eltSize);
        long paramCount = isMatrix() ? 0 : ((bytes / eltSize / nranks) / align) * align;
        long total = paramCount * nranks * eltSize;
        long maxSend = 0;
        long maxRecv = 0;
        for (int i = 0; i < nranks; i++) {
            long send = 0;
            long recv = 0;
            for (int j = 0; j < nranks; j++) {
                send += peerBytes(i, j, nranks, total) / eltSize;
                recv += peerBytes(j, i, nranks, total) / eltSize;
            }
            maxSend = Math.max(maxSend, send);
            maxRecv = Math.max(maxRecv, recv);
        }
        return new Collective.ByteCounts(paramCount, maxSend, maxRecv, Math.max(maxSend, maxRecv) * eltSize);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PeerTraffic p && p.spread == spread && p.matrixDim == matrixDim
                && Arrays.equals(p.matrixBytes, matrixBytes);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Double.hashCode(spread) + matrixDim) + Arrays.hashCode(matrixBytes);
    }

    @Override
    public String toString() {
        return isMatrix() ? "matrix " + matrixDim + "x" + matrixDim : "spread " + spread;
    }
}
