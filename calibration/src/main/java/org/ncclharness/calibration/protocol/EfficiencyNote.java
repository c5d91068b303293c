package org.ncclharness.calibration.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.fit.Fit;

/**
 * The reader's warning for a fitted protocol efficiency above 1. η_LL and η_LL128 are shares of Simple's bandwidth
 * on the same links, so above 1 they describe no protocol NCCL has: the fit spends the protocol on a mid-size
 * regime the model has no term for (capping η at 1 was tried and made the multi-domain extrapolation worse, so the
 * value is kept and said).
 */
public final class EfficiencyNote {

    /** θ indices of η_LL and η_LL128: the same in the single-tier and the algorithm envelope. */
    private static final int[] EFFICIENCIES = {4, 5};

    private EfficiencyNote() {
    }

    /** The note for an envelope fit whose η exceeds 1; empty for any other fit. */
    public static Optional<String> of(Fit fit) {
        if (!(fit.model() instanceof ProtocolEnvelopeModel) && !(fit.model() instanceof AlgorithmEnvelopeModel)) {
            return Optional.empty();
        }
        double[] theta = fit.theta();
        List<String> names = fit.model().parameterNames();
        List<String> above = new ArrayList<>();
        for (int j : EFFICIENCIES) {
            if (theta[j] > 1) {
                above.add(String.format(Locale.ROOT, "%s %.3g", names.get(j), theta[j]));
            }
        }
        if (above.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(fit.name() + ": " + String.join(", ", above) + " above 1, more than Simple carries on the"
                + " same links: the fit uses the protocol for a mid-size regime the model has no term for; read its"
                + " latencies and efficiencies as fitted constants, not as NCCL's protocols");
    }
}
