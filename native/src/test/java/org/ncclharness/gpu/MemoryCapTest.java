package org.ncclharness.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryCapTest {
    private static final long GIB = 1L << 30;

    @Test
    void followsNcclTestsFormula() {
        // 80 GiB: reserve = min(ceil(80/16) GiB, 4 GiB) = 4 GiB; (80 - 4 - 1) / 3 = 25 GiB with the check
        assertThat(MemoryCap.capBytes(80 * GIB, true)).isEqualTo(25 * GIB);
        assertThat(MemoryCap.capBytes(80 * GIB, false)).isEqualTo(75 * GIB / 2);
        // 16 GiB: reserve 1 GiB; (16 - 1 - 1) / 2 = 7 GiB
        assertThat(MemoryCap.capBytes(16 * GIB, false)).isEqualTo(7 * GIB);
        // a partial 16 GiB block still reserves a whole GiB: 17 GiB → reserve 2 GiB
        assertThat(MemoryCap.capBytes(17 * GIB, false)).isEqualTo(7 * GIB);
    }

    @Test
    void reducesOnlyWhenTheMaximumDoesNotFit() {
        assertThat(MemoryCap.reducedMax(7 * GIB, 16 * GIB, false)).isEmpty();
        assertThat(MemoryCap.reducedMax(8 * GIB, 16 * GIB, false)).hasValue(7 * GIB);
        assertThat(MemoryCap.reducedMax(8 * GIB, 16 * GIB, true)).hasValue(14 * GIB / 3);
    }
}
