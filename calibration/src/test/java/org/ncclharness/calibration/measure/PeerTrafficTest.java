package org.ncclharness.calibration.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * alltoallv's per-peer bytes and counts against values worked out by hand from nccl-tests 2.19.6's formulas
 * (AlltoAllvGetPeerBytesDistanceWeighted, AlltoAllvGetCollByteCount, AlltoAllvReadTrafficMatrix's alignment).
 */
class PeerTrafficTest {

    private static long[] row(PeerTraffic t, int from, int n, long total) {
        return IntStream.range(0, n).mapToLong(to -> t.peerBytes(from, to, n, total)).toArray();
    }

    @Test
    void spreadOneWeighsPeersByDistanceAndRoundsEachDownTo16Bytes() {
        // 4 ranks, 1024 B each: distance d gets d x 1024 / 6 = 0, 170.7, 341.3, 512 -> 0, 160, 336, 512
        PeerTraffic t = PeerTraffic.distanceWeighted(1.0);
        assertThat(row(t, 0, 4, 1024)).containsExactly(0, 160, 336, 512);
        assertThat(row(t, 1, 4, 1024)).containsExactly(512, 0, 160, 336);
        assertThat(row(t, 3, 4, 1024)).containsExactly(160, 336, 512, 0);
    }

    @Test
    void spreadZeroIsUniformAndAHalfBlendsTheTwo() {
        assertThat(row(PeerTraffic.distanceWeighted(0.0), 2, 4, 1024)).containsExactly(256, 256, 256, 256);
        // 128 + d x 85.3: 128, 213.3, 298.7, 384 -> 128, 208, 288, 384
        assertThat(row(PeerTraffic.distanceWeighted(0.5), 0, 4, 1024)).containsExactly(128, 208, 288, 384);
    }

    @Test
    void theSpreadIsClampedToZeroToOneAsNcclTestsClampsIt() {
        assertThat(PeerTraffic.distanceWeighted(7).spread()).isEqualTo(1.0);
        assertThat(PeerTraffic.distanceWeighted(-1).spread()).isEqualTo(0.0);
    }

    @Test
    void countsAreThePerPeerShareAndTheBusiestRanksTotals() {
        // float, 4 ranks, -b 1024: count 256, per-peer (256/4) aligned to 4 elements = 64; sends 0+160+336+512 B
        Collective.ByteCounts c = Collective.ALL_TO_ALL_V.counts(1024, 4, 4, PeerTraffic.distanceWeighted(1.0));
        assertThat(c).isEqualTo(new Collective.ByteCounts(64, 252, 252, 1008));
        assertThat(Collective.ALL_TO_ALL_V.counts(1024, 4, 4, PeerTraffic.distanceWeighted(0.0)))
                .isEqualTo(new Collective.ByteCounts(64, 256, 256, 1024));
        // 2 ranks, spread 1: everything goes to the other rank
        assertThat(Collective.ALL_TO_ALL_V.counts(1024, 4, 2, PeerTraffic.distanceWeighted(1.0)))
                .isEqualTo(new Collective.ByteCounts(128, 256, 256, 1024));
        // the three-argument form is nccl-tests' default pattern, spread 1
        assertThat(Collective.ALL_TO_ALL_V.counts(1024, 4, 4)).isEqualTo(c);
        // busbw: (N-1)/N of the busiest rank's bytes over the time
        assertThat(Collective.ALL_TO_ALL_V.busBwGBps(1008, 1.0, 4)).isEqualTo(1008 / 1e3 * 0.75);
    }

    @Test
    void aMatrixIsScaledAlignedAndItsBusiestRankSetsTheSize() {
        double[][] m = {{100, 200, 150}, {50, 100, 75}, {300, 150, 200}};
        PeerTraffic t = PeerTraffic.matrix(m, 1.0);
        assertThat(t.matrixBytes()).containsExactly(96, 192, 144, 48, 96, 64, 288, 144, 192);
        // sends 432, 208, 624; receives 432, 432, 400; the count column is 0 in matrix mode
        assertThat(t.counts(4096, 1, 3)).isEqualTo(new Collective.ByteCounts(0, 624, 432, 624));
        assertThat(t.counts(4096, 4, 3)).isEqualTo(new Collective.ByteCounts(0, 156, 108, 624));
        // a job smaller than the matrix uses its top-left corner: sends 288, 144
        assertThat(t.counts(4096, 1, 2)).isEqualTo(new Collective.ByteCounts(0, 288, 288, 288));
        assertThat(PeerTraffic.matrix(m, 2.5).matrixBytes()).startsWith(240, 496, 368);
        assertThat(PeerTraffic.matrix(m, -1).matrixBytes()).containsOnly(0L);
    }
}
