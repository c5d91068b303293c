package org.ncclharness.calibration.fit;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.ncclharness.calibration.measure.Placement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TailBandwidthTest {

    /** AllReduce's bus factor at 16 ranks. */
    private static final double F = 2.0 * 15 / 16;

    /** A -f 2 sweep from 1 KiB to {@code max} with times from {@code time}, busbw as nccl-tests prints it. */
    private static FitPoints sweep(long max, DoubleUnaryOperator time) {
        int n = Long.numberOfTrailingZeros(max) - 10 + 1;
        double[] b = new double[n];
        double[] t = new double[n];
        double[] bw = new double[n];
        for (int i = 0; i < n; i++) {
            b[i] = 1024.0 * (1L << i);
            t[i] = time.applyAsDouble(b[i]);
            bw[i] = F * b[i] / (t[i] * 1e3);
        }
        return new FitPoints(b, t, bw, Placement.OUT_OF_PLACE, false, List.of());
    }

    private static DoubleUnaryOperator alphaBeta(double alphaUs, double betaGBps) {
        return m -> alphaUs + F * m / (betaGBps * 1e3);
    }

    @Test
    void anAlphaBetaLineGivesItsOwnBandwidthFromTheLastTwoOctaves() {
        TailBandwidth t = TailBandwidth.of(sweep(8L << 30, alphaBeta(40, 190)), F).orElseThrow();
        assertThat(t.busBwGBps()).isCloseTo(190, within(1e-9 * 190));
        assertThat(t.alphaUs()).isCloseTo(40, within(1e-6));
        // 2 GiB, 4 GiB and 8 GiB: within two octaves of the largest, all above 80 % of its busbw
        assertThat(t.points()).isEqualTo(3);
        assertThat(t.fromBytes()).isEqualTo(2.0 * (1L << 30));
        assertThat(t.range()).isEqualTo("2 GiB-8 GiB (3 sizes)");
    }

    @Test
    void theEndIsWhereTheBusBandwidthIsNearItsLargestSizes() {
        // a 3 ms latency: busbw is 148 GB/s at 1 GiB, 121 GB/s at 512 MiB and 89 GB/s at 256 MiB, below 80 % of the
        // largest size's: the end is 512 MiB and 1 GiB, and their line still gives the bandwidth exactly
        FitPoints p = sweep(1L << 30, alphaBeta(3000, 190));
        assertThat(p.busBwGBps()[p.largest() - 2] / p.busBwGBps()[p.largest()]).isLessThan(TailBandwidth.BUSBW_SHARE);
        TailBandwidth t = TailBandwidth.of(p, F).orElseThrow();
        assertThat(t.points()).isEqualTo(2);
        assertThat(t.busBwGBps()).isCloseTo(190, within(1e-6 * 190));
    }

    @Test
    void timesSoFarApartThatTheLineHasNoRankGiveNoBandwidthRatherThanAnError() {
        // a damaged file: its last sizes' times say 1e300 us while their busbw columns kept the healthy figures, so
        // the end is those sizes and 1/T vanishes next to nothing: the two columns have no rank
        FitPoints healthy = sweep(8L << 30, alphaBeta(40, 190));
        double[] t = healthy.timeUs().clone();
        for (int i = t.length - 3; i < t.length; i++) {
            t[i] = 1e300;
        }
        FitPoints damaged = new FitPoints(healthy.bytes(), t, healthy.busBwGBps(), Placement.OUT_OF_PLACE, false,
                List.of());
        assertThat(TailBandwidth.of(damaged, F)).isEmpty();
    }

    @Test
    void anEndOfOneSizeGivesNoBandwidth() {
        // a latency so large that the size below the largest is under 80 % of its busbw
        assertThat(TailBandwidth.of(sweep(1L << 20, alphaBeta(8000, 190)), F)).isEmpty();
        assertThat(TailBandwidth.of(sweep(1L << 10, alphaBeta(40, 190)), F)).isEmpty();
    }

    @Test
    void anEndSteeperThanALineIsTakenThroughTheOrigin() {
        // time growing faster than the size at the end (a congested largest size): the line's intercept would be
        // negative, a time below zero as the size goes to 0; the end is read as all bandwidth instead
        FitPoints p = sweep(8L << 30, m -> F * m / (190 * 1e3) * (m >= (8L << 30) ? 1.1 : 1.0));
        TailBandwidth t = TailBandwidth.of(p, F).orElseThrow();
        assertThat(t.alphaUs()).isZero();
        assertThat(t.busBwGBps()).isBetween(172.0, 190.0);
    }
}
