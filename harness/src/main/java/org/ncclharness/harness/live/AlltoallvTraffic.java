package org.ncclharness.harness.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ncclharness.calibration.measure.PeerTraffic;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/**
 * alltoallv's pattern from the environment nccl-tests 2.19.6 reads (src/alltoallv.cu): a traffic-matrix file
 * (NCCL_TESTS_ALLTOALLV_MATRIX_FILE, scaled by NCCL_TESTS_ALLTOALLV_MATRIX_SCALE), else the generated pattern with
 * NCCL_TESTS_ALLTOALLV_SPREAD. Unparsable numbers in the two factors keep their defaults, as there; a bad matrix
 * file is refused in one line naming file:line (exit 2), where nccl-tests prints a message and fails the test.
 */
final class AlltoallvTraffic {
    static final String MATRIX_FILE = "NCCL_TESTS_ALLTOALLV_MATRIX_FILE";
    static final String MATRIX_SCALE = "NCCL_TESTS_ALLTOALLV_MATRIX_SCALE";
    static final String SPREAD = "NCCL_TESTS_ALLTOALLV_SPREAD";

    private AlltoallvTraffic() {
    }

    static PeerTraffic fromEnvironment(Map<String, String> env) {
        String file = env.get(MATRIX_FILE);
        if (file != null) {
            return PeerTraffic.matrix(read(Path.of(file)), factor(env.get(MATRIX_SCALE), 1.0));
        }
        return PeerTraffic.distanceWeighted(factor(env.get(SPREAD), 1.0));
    }

    /** Matrix mode runs one size (AlltoAllvRunTest): {@code -b} must equal {@code -e}. */
    static void requireOneSize(PeerTraffic traffic, long minBytes, long maxBytes) {
        if (traffic.isMatrix() && minBytes != maxBytes) {
            throw usage("-b " + minBytes + " and -e " + maxBytes + " differ, but with " + MATRIX_FILE + " the sizes"
                    + " come from the matrix: give -b and -e the same value (e.g. -b 32M -e 32M)");
        }
    }

    /**
     * Matrix mode's limits once the job's size is known (AlltoAllvInit, AlltoAllvGetBuffSize): a matrix at least as
     * wide as the job, and {@code -e} holding the busiest rank's bytes.
     */
    static void requireFits(PeerTraffic traffic, long maxBytes, int nranks) {
        if (!traffic.isMatrix()) {
            return;
        }
        if (nranks > traffic.matrixDim()) {
            throw usage("the " + MATRIX_FILE + " matrix is " + traffic.matrixDim() + "x" + traffic.matrixDim()
                    + ", smaller than the job's " + nranks + " ranks: give one with at least " + nranks + " rows");
        }
        long busiest = traffic.counts(maxBytes, 1, nranks).printedBytes();
        if (maxBytes < busiest) {
            throw usage("-e " + maxBytes + " is below the " + busiest + " bytes the busiest rank of the "
                    + MATRIX_FILE + " matrix sends or receives: give -b and -e at least " + busiest);
        }
    }

    private static double factor(String text, double fallback) {
        if (text == null) {
            return fallback;
        }
        try {
            double v = Double.parseDouble(text);
            return Double.isFinite(v) ? v : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Whitespace-separated non-negative byte counts, one matrix row per non-blank line, square. */
    static double[][] read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw usage(file + ": cannot read the alltoallv traffic matrix (" + MATRIX_FILE + "): " + e.getMessage());
        }
        List<double[]> rows = new ArrayList<>();
        int lastLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split("\\s+");
            double[] row = new double[cells.length];
            for (int c = 0; c < cells.length; c++) {
                row[c] = value(cells[c], file, i + 1, c + 1);
            }
            if (!rows.isEmpty() && row.length != rows.get(0).length) {
                throw usage(file + ":" + (i + 1) + ": " + row.length + " values, expected " + rows.get(0).length
                        + " like the first row: every row of the traffic matrix needs the same number of columns");
            }
            rows.add(row);
            lastLine = i + 1;
        }
        if (rows.isEmpty()) {
            throw usage(file + ":1: the alltoallv traffic matrix is empty: expected N lines of N byte counts");
        }
        if (rows.size() != rows.get(0).length) {
            throw usage(file + ":" + lastLine + ": " + rows.size() + " rows of " + rows.get(0).length + " values: the"
                    + " traffic matrix must be square (cell [i][j] = bytes rank i sends rank j)");
        }
        return rows.toArray(double[][]::new);
    }

    private static double value(String cell, Path file, int line, int column) {
        double v;
        try {
            v = Double.parseDouble(cell);
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        if (!Double.isFinite(v) || v < 0) {
            throw usage(file + ":" + line + ": column " + column + " is '" + cell + "': expected a byte count of 0 or"
                    + " more");
        }
        return v;
    }

    private static HarnessException usage(String message) {
        return new HarnessException(ExitCode.USAGE, message);
    }
}
