package org.ncclharness.harness.figure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/** Synthetic sweeps whose times follow a known curve, so a test knows exactly what the chart must show. */
final class TestSweeps {

    private TestSweeps() {
    }

    /** T(M) = α + (2(N−1)/N)·M/β for AllReduce: the single-tier α-β model in µs, with β in GB/s. */
    static LongToDoubleFunction alphaBeta(int ranks, double alphaUs, double betaGBps) {
        double factor = 2.0 * (ranks - 1) / ranks;
        return bytes -> alphaUs + factor * bytes / (betaGBps * 1e3);
    }

    /** An AllReduce sweep from minBytes to maxBytes (×2 steps) whose out-of-place times follow {@code timeUs}. */
    static Sweep allReduce(String id, SourceKind kind, int ranks, long minBytes, long maxBytes,
                           LongToDoubleFunction timeUs) {
        List<Measurement> rows = new ArrayList<>();
        for (long s = minBytes; s <= maxBytes; s *= 2) {
            double t = timeUs.applyAsDouble(s);
            double algBw = s / (t * 1e3);
            double busBw = algBw * Collective.ALL_REDUCE.busFactor(ranks);
            Half half = new Half(t, algBw, busBw, 0.0);
            rows.add(new Measurement(s, s / 4, "float", "sum", -1, half, half));
        }
        Provenance p = new Provenance(kind, id, kind == SourceKind.DATASET || kind == SourceKind.REPLAY ? id : null,
                "synthetic " + kind.label() + " " + id);
        Hardware hw = new Hardware("H100", ranks, ranks / 8, 8, ranks / 8, "NVLink4", ranks > 8 ? "IB NDR" : null);
        return new Sweep(p, Collective.ALL_REDUCE, RunInfo.unknown(), hw, List.of(), rows, List.of());
    }
}
