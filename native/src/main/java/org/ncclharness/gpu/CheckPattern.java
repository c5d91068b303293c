package org.ncclharness.gpu;

/**
 * The known per-rank values of the data check and their reductions, in closed form so the host can verify
 * any size quickly. Rank r's element j holds {@code a(j) + b(r)} with {@code a(j)} a pseudo-random
 * function of the index and seed in [0, A) and {@code b(r) = 1 + r mod B}; then
 * sum = n·a(j) + Σb, max = a(j) + max b, min = a(j) + 1, avg = sum / n, mulsum (each rank's input times its
 * scalar s(r), 1 or 2: {@link ReduceOp#preMulScalar}) = Σs·a(j) + Σs(r)·b(r). Products use a separate pattern,
 * 1 everywhere except a 2 on one rank per element, so the product is exactly 2.
 *
 * <p>A and B are chosen so that every value and every exact result stays an exactly representable integer
 * of the datatype (integer sums and products may wrap: the GPU wraps identically). When even A = B = 1 does
 * not fit (e.g. a bfloat16 sum over more than 256 ranks), the check cannot be exact and is refused.
 */
final class CheckPattern {
    private final DataType type;
    private final ReduceOp op;
    private final int nranks;
    private final long seed;
    private final long a;
    private final long b;
    private final long sumB;
    private final long maxB;
    /** Σ s(r) and Σ s(r)·b(r) over the ranks, for mulsum. */
    private final long sumS;
    private final long sumSB;

    /**
     * @param op the reduction, or null for collectives that move data without reducing it
     * @throws IllegalArgumentException when no exact pattern exists for this type, op and rank count
     */
    CheckPattern(DataType type, ReduceOp op, int nranks, long seed) {
        this.type = type;
        this.op = op;
        this.nranks = nranks;
        this.seed = seed;
        long limit = type.exactIntegerLimit();
        long cap;
        if (op == ReduceOp.SUM) {
            cap = type.wraps() ? limit : limit / nranks;
        } else if (op == ReduceOp.MULSUM) {
            cap = type.wraps() ? limit : limit / (2L * nranks); // every scaled term and partial sum exact
        } else if (op == ReduceOp.AVG) {
            cap = limit / nranks; // the sum must not wrap before the division
        } else {
            cap = limit;
        }
        if (op != ReduceOp.PROD && cap < 1) {
            throw new IllegalArgumentException("the data check (-c) of " + type.testName() + " " + op.testName()
                    + " cannot be exact over " + nranks + " ranks; run with -c 0");
        }
        long bMax = Math.min(nranks, Math.max(1, Math.min(cap / 2, 61)));
        this.b = bMax;
        this.a = Math.max(1, Math.min(cap - bMax + 1, 1021));
        long s = 0;
        long m = 0;
        long ss = 0;
        long ssb = 0;
        for (int r = 0; r < nranks; r++) {
            s += bOf(r);
            m = Math.max(m, bOf(r));
            ss += ReduceOp.preMulScalar(r);
            ssb += ReduceOp.preMulScalar(r) * bOf(r);
        }
        this.sumB = s;
        this.maxB = m;
        this.sumS = ss;
        this.sumSB = ssb;
    }

    private long aOf(long j) {
        long h = (j + 1) * 0x9E3779B97F4A7C15L + seed * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        return Long.remainderUnsigned(h, a);
    }

    private long bOf(int r) {
        return 1 + (r % b);
    }

    /** Bits of rank {@code r}'s input element {@code j}. */
    long input(int r, long j) {
        if (op == ReduceOp.PROD) {
            return type.encodeInteger(Math.floorMod(j + seed, nranks) == r ? 2 : 1);
        }
        return type.encodeInteger(aOf(j) + bOf(r));
    }

    /** Bits of the reduction over all ranks of element {@code j}; for AVG on floats, see {@link #matches}. */
    long reduced(long j) {
        return switch (op) {
            case SUM -> type.encodeInteger(nranks * aOf(j) + sumB);
            case PROD -> type.encodeInteger(2);
            case MAX -> type.encodeInteger(aOf(j) + maxB);
            case MIN -> type.encodeInteger(aOf(j) + 1);
            case MULSUM -> type.encodeInteger(sumS * aOf(j) + sumSB);
            case AVG -> type.isFloatingPoint()
                    ? type.encode((double) (nranks * aOf(j) + sumB) / nranks)
                    : type.encodeInteger((nranks * aOf(j) + sumB) / nranks);
        };
    }

    /**
     * Whether a received element equals the expected one: bit-exact, except a floating-point average, which
     * NCCL computes as a sum of pre-multiplied terms; it may differ from sum/n by rounding, so it is allowed
     * n units in the last place of the datatype (nccl-tests allows 2 ulp against its own generator).
     */
    boolean matches(long gotBits, long expectedBits, boolean reducedAvgElement) {
        if (gotBits == expectedBits) {
            return true;
        }
        if (!reducedAvgElement || !type.isFloatingPoint()) {
            return false;
        }
        double got = type.decode(gotBits);
        double want = type.decode(expectedBits);
        double ulp = Math.abs(type.decode(expectedBits + 1) - want);
        return Math.abs(got - want) <= Math.max(2, nranks) * ulp;
    }

    ReduceOp op() {
        return op;
    }
}
