package org.ncclharness.calibration.fit.envelope;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.Residual;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * The reader's warning for a fitted protocol efficiency above 1. η_LL and η_LL128 are shares of Simple's bandwidth
 * on the same links, so above 1 they describe no protocol NCCL has: the fit spends the protocol on a mid-size
 * regime the model has no term for. The algorithm envelope across domains holds η at the lines' data shares
 * ({@link org.ncclharness.calibration.nccl.ProtocolDataShares}); the envelope keeps η free (held so, it
 * extrapolated worse on one domain) and its value is said here. Only a protocol the fit takes at some measured
 * size is named: one that never wins there has an η the data do not determine, whatever its value; nor one within {@value #NOISE} of 1, which a sweep's
 * few per cent of timing noise gives a protocol that runs at Simple's bandwidth.
 */
public final class EfficiencyNote {

    /** How far above 1 an η must be to be said. */
    static final double NOISE = 0.05;

    private EfficiencyNote() {
    }

    /** The note for an envelope fit whose η exceeds 1 on a protocol it takes; empty for any other fit. */
    public static Optional<String> of(Fit fit) {
        double[] theta = fit.theta();
        Set<Protocol> taken = EnumSet.noneOf(Protocol.class);
        for (Residual r : fit.residuals()) {
            Optional<Carrier> c = Carrier.of(fit.model(), r.bytes(), theta);
            if (c.isEmpty()) {
                return Optional.empty();
            }
            taken.add(c.get().protocol());
        }
        List<String> above = new ArrayList<>();
        for (Protocol p : taken) {
            double eta = ProtocolEnvelopeModel.efficiency(p, theta);
            if (eta > 1 + NOISE) {
                above.add(String.format(Locale.ROOT, "%s %.3g", ProtocolEnvelopeModel.efficiencyName(p), eta));
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
