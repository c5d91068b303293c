package org.ncclharness.gpu;

/**
 * Binary floating-point formats narrower than Java's: IEEE half, bfloat16 and the two OCP FP8 formats NCCL
 * accepts. Java 17 has no {@code Float.floatToFloat16}, and the data check needs exact bit patterns, so this
 * encodes with round-to-nearest-even and decodes exactly. One implementation, parameterised by the layout.
 *
 * @param expBits   exponent width
 * @param mantBits  stored mantissa width
 * @param ieeeSpecials whether the all-ones exponent means Inf/NaN (half, bf16, e5m2); e4m3 ("fn") uses it for
 *                  normal numbers and keeps only S.1111.111 for NaN
 */
record MiniFloat(int expBits, int mantBits, boolean ieeeSpecials) {
    static final MiniFloat HALF = new MiniFloat(5, 10, true);
    static final MiniFloat BFLOAT16 = new MiniFloat(8, 7, true);
    static final MiniFloat E4M3 = new MiniFloat(4, 3, false);
    static final MiniFloat E5M2 = new MiniFloat(5, 2, true);

    private int bias() {
        return (1 << (expBits - 1)) - 1;
    }

    private int maxExpField() {
        return (1 << expBits) - 1;
    }

    double decode(long bits) {
        int sign = (int) ((bits >>> (expBits + mantBits)) & 1);
        int e = (int) ((bits >>> mantBits) & maxExpField());
        long m = bits & ((1L << mantBits) - 1);
        double v;
        if (e == maxExpField() && (ieeeSpecials || m == (1L << mantBits) - 1)) {
            v = (ieeeSpecials && m == 0) ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (e == 0) {
            v = Math.scalb((double) m, 1 - bias() - mantBits);
        } else {
            v = Math.scalb((double) (m | (1L << mantBits)), e - bias() - mantBits);
        }
        return sign == 1 ? -v : v;
    }

    long encode(double x) {
        long sign = (Double.doubleToRawLongBits(x) >>> 63) << (expBits + mantBits);
        double a = Math.abs(x);
        if (Double.isNaN(x)) {
            return sign | ((long) maxExpField() << mantBits) | ((1L << mantBits) - 1);
        }
        int maxNormalExpField = ieeeSpecials ? maxExpField() - 1 : maxExpField();
        if (a == 0) {
            return sign;
        }
        int e = Math.getExponent(a);
        int minExp = 1 - bias();
        // quantum: the value of one unit in the last stored place at this magnitude
        int quantumExp = Math.max(e, minExp) - mantBits;
        double scaled = Math.scalb(a, -quantumExp);
        long q = (long) Math.rint(scaled); // rint rounds half to even
        long bits;
        if (e < minExp) {
            bits = q; // subnormal (q may round up into the smallest normal, which is the right pattern)
        } else {
            if (q == (2L << mantBits)) { // rounding carried into the next binade
                q >>= 1;
                e++;
            }
            bits = ((long) (e + bias()) << mantBits) | (q & ((1L << mantBits) - 1));
        }
        long maxFinite = ((long) maxNormalExpField << mantBits) | ((1L << mantBits) - 1) - (ieeeSpecials ? 0 : 1);
        if (bits > maxFinite) {
            bits = ieeeSpecials ? ((long) maxExpField() << mantBits) : maxFinite;
        }
        return sign | bits;
    }
}
