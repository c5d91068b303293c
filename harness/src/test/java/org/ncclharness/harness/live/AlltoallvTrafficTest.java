package org.ncclharness.harness.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ncclharness.calibration.measure.PeerTraffic;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/** alltoallv's environment as nccl-tests 2.19.6 reads it, and a bad matrix file refused in one file:line. */
class AlltoallvTrafficTest {

    @TempDir
    Path tmp;

    @Test
    void noVariablesIsSpreadOneAndUnparsableFactorsKeepTheirDefaults() {
        assertThat(AlltoallvTraffic.fromEnvironment(Map.of())).isEqualTo(PeerTraffic.distanceWeighted(1.0));
        assertThat(AlltoallvTraffic.fromEnvironment(Map.of(AlltoallvTraffic.SPREAD, "0.25")).spread()).isEqualTo(0.25);
        assertThat(AlltoallvTraffic.fromEnvironment(Map.of(AlltoallvTraffic.SPREAD, "lots")).spread()).isEqualTo(1.0);
        assertThat(AlltoallvTraffic.fromEnvironment(Map.of(AlltoallvTraffic.SPREAD, "3")).spread()).isEqualTo(1.0);
    }

    @Test
    void aMatrixFileIsReadAndScaled() throws Exception {
        Path m = Files.writeString(tmp.resolve("m.txt"), "100 200\n\n  50\t1e3 \n");
        PeerTraffic t = AlltoallvTraffic.fromEnvironment(Map.of(AlltoallvTraffic.MATRIX_FILE, m.toString(),
                AlltoallvTraffic.MATRIX_SCALE, "2"));
        assertThat(t.matrixBytes()).containsExactly(192, 400, 96, 2000);
    }

    private void refused(String text, String message) throws Exception {
        Path m = Files.writeString(tmp.resolve("bad.txt"), text);
        assertThatThrownBy(() -> AlltoallvTraffic.fromEnvironment(Map.of(AlltoallvTraffic.MATRIX_FILE, m.toString())))
                .isInstanceOfSatisfying(HarnessException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE))
                .hasMessage(m + message);
    }

    @Test
    void aBadMatrixIsRefusedNamingFileAndLine() throws Exception {
        refused("1 2\n3 -4\n", ":2: column 2 is '-4': expected a byte count of 0 or more");
        refused("1 2\n3\n", ":2: 1 values, expected 2 like the first row: every row of the traffic matrix needs the"
                + " same number of columns");
        refused("1 2\n3 4\n5 6\n", ":3: 3 rows of 2 values: the traffic matrix must be square (cell [i][j] = bytes"
                + " rank i sends rank j)");
        refused("\n \n", ":1: the alltoallv traffic matrix is empty: expected N lines of N byte counts");
    }

    @Test
    void matrixModeNeedsOneSizeAWideEnoughMatrixAndRoomForTheBusiestRank() {
        PeerTraffic t = PeerTraffic.matrix(new double[][] {{0, 512}, {64, 0}}, 1);
        AlltoallvTraffic.requireOneSize(PeerTraffic.distanceWeighted(1), 8, 1024);
        assertThatThrownBy(() -> AlltoallvTraffic.requireOneSize(t, 8, 1024)).hasMessageStartingWith(
                "-b 8 and -e 1024 differ");
        AlltoallvTraffic.requireFits(t, 512, 2);
        assertThatThrownBy(() -> AlltoallvTraffic.requireFits(t, 256, 2)).hasMessage("-e 256 is below the 512 bytes"
                + " the busiest rank of the NCCL_TESTS_ALLTOALLV_MATRIX_FILE matrix sends or receives: give -b and -e"
                + " at least 512");
        assertThatThrownBy(() -> AlltoallvTraffic.requireFits(t, 512, 3)).hasMessageContaining("smaller than the"
                + " job's 3 ranks");
    }
}
