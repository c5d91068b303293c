package org.ncclharness.calibration.predict;

import org.ncclharness.calibration.format.NcclTestsTableWriter;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Note;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Predictions as a {@link Sweep} with {@link SourceKind#PREDICTED} provenance, so every writer prints them in the
 * measurement layout and labels them as predictions. Both halves carry the same prediction; #wrong is absent (no
 * data was checked).
 */
public final class PredictedSweep {

    /** nccl-tests' default datatype for the count column: float, 4 bytes. */
    private static final int FLOAT_BYTES = 4;

    private PredictedSweep() {
    }

    /** The heading line every prediction output starts with. */
    /**
     * The line a predicted table starts with: the model, where it came from and the configuration predicted (N,
     * and the domains of a model across domains), which the reader takes back as the table's hardware.
     */
    public static String heading(PredictionModel pm) {
        String scale = pm.model().domains().filter(c -> c.domains() > 1)
                .map(c -> ", for " + pm.ranks() + " GPUs in " + c.domains() + " domains of " + c.gpusPerDomain())
                .orElse(", for " + pm.ranks() + " GPUs");
        return "# " + NcclTestsTableWriter.PREDICTED_BY + pm.name() + " from " + pm.source() + scale;
    }

    public static Sweep of(PredictionModel pm, List<Long> sizes, Hardware hw) {
        Collective c = pm.collective();
        int n = pm.ranks();
        double f = c.busFactor(n);
        List<Measurement> rows = new ArrayList<>();
        for (long s : sizes) {
            double t = pm.timeUs(s);
            double alg = s / (t * 1e3);
            Half h = new Half(t, alg, alg * f, null);
            rows.add(new Measurement(s, c.counts(s, FLOAT_BYTES, n).paramCount(), "float",
                    c.reduces() ? "sum" : "none", c.rooted() ? 0 : -1, h, h));
        }
        Provenance p = new Provenance(SourceKind.PREDICTED, pm.source(), null, heading(pm).substring(2));
        return new Sweep(p, c, RunInfo.unknown(), hw, List.of(), rows, Note.info(pm.notes()));
    }
}
