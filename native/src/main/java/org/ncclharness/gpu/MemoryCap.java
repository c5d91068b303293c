package org.ncclharness.gpu;

import java.util.OptionalLong;

/**
 * nccl-tests' device-memory cap on {@code -e} (src/common.cu, the v2.16.6+ formula): with the smallest GPU's
 * total memory M, reserve = min(ceil(M / 16 GiB) GiB, 4 GiB) and the largest size is
 * (M − reserve − 1 GiB) / (3 with a data check, else 2).
 */
public final class MemoryCap {
    private static final long GIB = 1L << 30;

    private MemoryCap() {
    }

    public static long capBytes(long minTotalMemBytes, boolean check) {
        long reserve = Math.min(((minTotalMemBytes + 16 * GIB - 1) / (16 * GIB)) * GIB, 4 * GIB);
        return Math.max(0, (minTotalMemBytes - reserve - GIB) / (check ? 3 : 2));
    }

    /**
     * The reduced maximum when {@code maxBytes} exceeds the cap, empty otherwise. The caller prints nccl-tests'
     * {@code # Reducing maxBytes to <n> due to memory limitation} and clips the minimum to it too.
     */
    public static OptionalLong reducedMax(long maxBytes, long minTotalMemBytes, boolean check) {
        long cap = capBytes(minTotalMemBytes, check);
        return maxBytes > cap ? OptionalLong.of(cap) : OptionalLong.empty();
    }
}
