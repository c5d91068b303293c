package org.ncclharness.calibration.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SizeTextTest {

    @Test
    void approxPrintsThreeSignificantDigits() {
        assertThat(SizeText.approx(8L << 30)).isEqualTo("8 GiB");
        assertThat(SizeText.approx(1.5 * (1 << 20))).isEqualTo("1.5 MiB");
        assertThat(SizeText.approx(100L << 20)).isEqualTo("100 MiB");
        assertThat(SizeText.approx(1000L << 10)).isEqualTo("1000 KiB");
    }

    @Test
    void exactNeverRoundsAMeasuredSize() {
        assertThat(SizeText.exact(16L << 20)).isEqualTo("16 MiB");
        assertThat(SizeText.exact(1536)).isEqualTo("1536 B");
        assertThat(SizeText.exact(1048560)).isEqualTo("1048560 B"); // 6 ranks' share of 1 MiB, not "1 MiB"
        assertThat(SizeText.exact(3L << 40)).isEqualTo("3 TiB");
        assertThat(SizeText.exact(0)).isEqualTo("0 B");
    }
}
