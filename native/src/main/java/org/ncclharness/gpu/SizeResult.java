package org.ncclharness.gpu;

import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Measurement;

/**
 * One size of a sweep: the row nccl-tests prints (as calibration's {@link Measurement}, with times in µs
 * and #wrong as counted) plus what that row cannot hold: CPU launch times and per-iteration samples.
 */
public record SizeResult(Measurement measurement, PlacementResult outOfPlace, PlacementResult inPlace) {

    /**
     * The row as nccl-tests {@code -C 1} prints it: the CPU launch time in the time column, bandwidths still
     * from the completion time (nccl-tests computes them before choosing what to print).
     */
    public Measurement withCpuTime() {
        Measurement m = measurement;
        return new Measurement(m.sizeBytes(), m.count(), m.type(), m.redop(), m.root(),
                cpu(m.outOfPlace(), outOfPlace), cpu(m.inPlace(), inPlace));
    }

    private static Half cpu(Half h, PlacementResult p) {
        return new Half(p.cpuTimeUs(), h.algBwGBps(), h.busBwGBps(), h.wrong());
    }
}
