package org.ncclharness.calibration.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.measure.SizeText;

/**
 * rccl-tests' {@code algo proto nchannels} columns of one table (its {@code -A 1}): what RCCL ran each size with.
 * No model reads them; a note keeps them, size range by size range, so a switch of algorithm is not lost.
 */
final class TuningColumns {

    private record Run(String choice, long firstBytes, long lastBytes) {
    }

    private final List<Run> runs = new ArrayList<>();

    void add(long sizeBytes, String algo, String proto, String channels) {
        String choice = algo.equals("N/A") && proto.equals("N/A") ? "none (point to point)"
                : algo + "/" + proto + ", " + channels + " channels";
        int last = runs.size() - 1;
        if (last >= 0 && runs.get(last).choice().equals(choice)) {
            runs.set(last, new Run(choice, runs.get(last).firstBytes(), sizeBytes));
        } else {
            runs.add(new Run(choice, sizeBytes, sizeBytes));
        }
    }

    /** {@code rccl-tests' algo/proto/nchannels columns: Direct/SIMPLE, 32 channels at 1 MiB; ...}, or none. */
    Optional<String> note() {
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = runs.stream().map(r -> r.choice() + " at " + SizeText.approx(r.firstBytes())
                + (r.lastBytes() == r.firstBytes() ? "" : " to " + SizeText.approx(r.lastBytes()))).toList();
        return Optional.of("rccl-tests' algo/proto/nchannels columns (what RCCL ran each size with): "
                + String.join("; ", parts));
    }

    void clear() {
        runs.clear();
    }
}
