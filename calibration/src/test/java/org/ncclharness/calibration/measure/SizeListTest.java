package org.ncclharness.calibration.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class SizeListTest {
    @Test
    void parsesBinarySuffixesFractionsAndIgnoresTrailingText() {
        assertThat(SizeList.parseSize("8", "minbytes")).isEqualTo(8);
        assertThat(SizeList.parseSize("1K", "minbytes")).isEqualTo(1024);
        assertThat(SizeList.parseSize("128m", "maxbytes")).isEqualTo(128L << 20);
        assertThat(SizeList.parseSize("8G", "maxbytes")).isEqualTo(8L << 30);
        assertThat(SizeList.parseSize("1.5K", "minbytes")).isEqualTo(1536);
        assertThat(SizeList.parseSize("16MB", "maxbytes")).isEqualTo(16L << 20); // sscanf("%lf %1s") reads only 'M'
    }

    @Test
    void rejectsWhatNcclTestsRejectsWithItsMessage() {
        assertThatThrownBy(() -> SizeList.parseSize("8T", "maxbytes"))
                .hasMessageStartingWith("invalid size specified for 'maxbytes': '8T'");
        assertThatThrownBy(() -> SizeList.parseSize("abc", "minbytes"))
                .hasMessageStartingWith("invalid size specified for 'minbytes'");
        assertThatThrownBy(() -> SizeList.parseSize("-1", "minbytes"))
                .hasMessageStartingWith("invalid size specified for 'minbytes'");
        assertThatThrownBy(() -> SizeList.sizes(64, 8, 0, 2))
                .hasMessage("invalid sizes for 'minbytes' and 'maxbytes': 64 > 8");
    }

    @Test
    void factorTwoFrom8To128MIs25Sizes() {
        List<Long> s = SizeList.sizes(8, 128L << 20, 1 << 20, 2);
        assertThat(s).hasSize(25).startsWith(8L, 16L, 32L).endsWith(134217728L);
    }

    @Test
    void additiveStepAndAFactorOfOneMeanTheIncrement() {
        assertThat(SizeList.sizes(1 << 20, 4 << 20, 1 << 20, 1)).containsExactly(1L << 20, 2L << 20, 3L << 20, 4L << 20);
        assertThat(SizeList.sizes(100, 350, 100, 0)).containsExactly(100L, 200L, 300L);
    }

    @Test
    void factorStepsStopBeforeExceedingTheMaximum() {
        assertThat(SizeList.sizes(3, 100, 0, 4)).containsExactly(3L, 12L, 48L);
    }

    @Test
    void loopsThatWouldNeverEndAreRefused() {
        assertThatThrownBy(() -> SizeList.sizes(0, 1024, 0, 2))
                .hasMessage("minbytes 0 with stepfactor 2 never advances: use minbytes 1 or larger");
        assertThatThrownBy(() -> SizeList.sizes(8, 1024, 0, 1))
                .hasMessage("stepbytes 0 never advances: use stepbytes 1 or larger, or stepfactor 2");
        assertThat(SizeList.sizes(8, 8, 0, 1)).containsExactly(8L);
    }

    @Test
    void aStepPastLongMaxEndsTheListInsteadOfWrapping() {
        // (2^62 + 1) * 5 wraps to 2^62 + 5: larger, so a wrap test of "next <= size" alone lets it through
        long big = (1L << 62) + 1;
        assertThat(SizeList.sizes(big, Long.MAX_VALUE, 0, 5)).containsExactly(big);
        assertThat(SizeList.sizes(Long.MAX_VALUE - 1, Long.MAX_VALUE, 2, 1)).containsExactly(Long.MAX_VALUE - 1);
        assertThat(SizeList.sizes(0, 0, 0, 2)).containsExactly(0L);
    }

    @Test
    void warmUpAlwaysDoublesFromTheMinimum() {
        assertThat(SizeList.warmupSizes(1000, 5000)).containsExactly(1000L, 2000L, 4000L);
        assertThat(SizeList.warmupSizes(0, 4)).containsExactly(0L, 1L, 2L, 4L);
    }

    @Property
    void everySizeIsWithinBoundsAndIncreasing(@ForAll @LongRange(min = 1, max = 1L << 20) long min,
                                              @ForAll @LongRange(min = 0, max = 1L << 24) long span,
                                              @ForAll @LongRange(min = 2, max = 8) long factor) {
        List<Long> s = SizeList.sizes(min, min + span, 0, factor);
        assertThat(s.get(0)).isEqualTo(min);
        assertThat(s).isSorted().allMatch(x -> x <= min + span);
        assertThat(s.get(s.size() - 1) * factor).isGreaterThan(min + span);
    }
}
