package org.ncclharness.calibration.format;

import java.util.List;
import org.ncclharness.calibration.measure.Placement;

/**
 * What an nccl-tests table holds besides its rows, for a run that states it: the lines nccl-tests prints after
 * its parameters' line ({@code # Blocking Enabled: ...}, {@code # Per-Iteration Report: ...}), and with {@code -I
 * 1} the per-iteration summary of every row and placement, printed as four more columns per placement.
 *
 * @param settings          comment lines, each starting with {@code #}, in nccl-tests' order
 * @param perIterationTable true for a {@code -I 1} table (nccl-tests' {@code per_iter_timing} after its checks)
 * @param perIteration      the summaries; a row and placement without one prints {@code N/A}
 */
public record TableExtras(List<String> settings, boolean perIterationTable, List<PerIteration> perIteration) {

    public static final TableExtras NONE = new TableExtras(List.of(), false, List.of());

    public TableExtras {
        settings = List.copyOf(settings);
        perIteration = List.copyOf(perIteration);
    }

    /** The summary of row {@code row}'s placement {@code p}, or null. */
    PerIteration of(int row, Placement p) {
        for (PerIteration it : perIteration) {
            if (it.row() == row && it.placement() == p) {
                return it;
            }
        }
        return null;
    }

    /**
     * The settings lines nccl-tests 2.19.6 prints for {@code -z} and {@code -I} (src/util.cu, writeDeviceReport),
     * spaces before the line ends included. Both are the values after nccl-tests' own checks: {@code -z 3} and
     * {@code -I 1} are off under {@code -G}.
     */
    public static List<String> settingLines(int blocking, boolean perIter, int perIterSkip) {
        List<String> lines = new java.util.ArrayList<>();
        switch (blocking) {
            case 1 -> lines.add("# Blocking Enabled: wait and barrier after each inner iteration (-m) ");
            case 2 -> lines.add("# Blocking Enabled: wait after each inner iteration (-m), no barrier ");
            case 3 -> lines.add("# Blocking Enabled: wait and barrier after each outer iteration (-n); time excludes"
                    + " barrier ");
            default -> { }
        }
        if (perIter) {
            lines.add("# Per-Iteration Report: CUDA event timing; i_* uses max over process rows"
                    + (perIterSkip > 0 ? "; summary skips first " + perIterSkip + " iterations" : "") + " ");
        }
        return lines;
    }
}
