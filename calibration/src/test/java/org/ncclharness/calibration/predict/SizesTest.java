package org.ncclharness.calibration.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizesTest {

    @Test
    void binaryAsNcclTestsDecimalWhenSpelledSo() {
        assertThat(Sizes.parse("1K")).isEqualTo(1024);
        assertThat(Sizes.parse("1M")).isEqualTo(1 << 20);
        assertThat(Sizes.parse("8G")).isEqualTo(8L << 30);
        assertThat(Sizes.parse("2MiB")).isEqualTo(2 << 20);
        assertThat(Sizes.parse("14GB")).isEqualTo(14_000_000_000L);
        assertThat(Sizes.parse("1.5KB")).isEqualTo(1500);
        assertThat(Sizes.parse("4096")).isEqualTo(4096);
    }

    @Test
    void aLowerCaseBIsBitsAndAsked() {
        assertThatThrownBy(() -> Sizes.parse("1Gb")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'1Gb': a lower-case b is bits (Gb); a size is in bytes: 1GB (decimal) or 1GiB (binary)");
        assertThat(Sizes.parse("1GB")).isEqualTo(1_000_000_000L);
        assertThat(Sizes.parse("1gib")).isEqualTo(1L << 30);
    }

    @Test
    void badSizesNameTheAcceptedForms() {
        assertThatThrownBy(() -> Sizes.parse("14XB")).hasMessageContaining("1MiB");
        assertThatThrownBy(() -> Sizes.parse("0.5")).hasMessageContaining("whole number");
    }

    @Test
    void seriesIsNcclTestsSizeList() {
        assertThat(Sizes.series(8, 64, 2)).containsExactly(8L, 16L, 32L, 64L);
        assertThat(Sizes.series(1024, 5000, 4)).containsExactly(1024L, 4096L);
        assertThatThrownBy(() -> Sizes.series(64, 8, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
