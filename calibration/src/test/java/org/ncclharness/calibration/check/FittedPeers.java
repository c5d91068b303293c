package org.ncclharness.calibration.check;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;

/**
 * The bundled peers' models as {@code check} fits them ({@link PredictionSources#dataset}), each fitted once per
 * test JVM: the gate and verdict-table tests judge every bundled run and four degraded copies of each against the
 * same few peers, and refitting a peer for every judgement was most of the calibration module's test time
 * (issue 43). A fit is a pure function of the bundled data, so the answer is the one a fresh fit gives; a peer
 * whose fit fails fails the same way each time.
 */
final class FittedPeers {

    private static final Map<String, Fitted> FITTED = new ConcurrentHashMap<>();

    private FittedPeers() {
    }

    /** A peer's model, or the exception its fit threw. */
    private record Fitted(PredictionModel model, RuntimeException failure) {
    }

    /** For {@link ExpectedCurves#forRun(org.ncclharness.calibration.measure.Sweep, String, Integer, String,
     * java.util.List, ExpectedCurves.PeerModels)}, with the bundled hardware facts. */
    static ExpectedCurves.PeerModels of(HardwareFacts facts) {
        if (facts != HardwareFacts.bundled()) {
            return id -> PredictionSources.dataset(id, null, facts);
        }
        return id -> {
            Fitted f = FITTED.get(id);
            if (f == null) {
                try {
                    f = new Fitted(PredictionSources.dataset(id, null, facts), null);
                } catch (RuntimeException e) {
                    f = new Fitted(null, e);
                }
                FITTED.putIfAbsent(id, f);
            }
            if (f.failure() != null) {
                throw f.failure();
            }
            return f.model();
        };
    }
}
