package org.ncclharness.calibration.fit.envelope;

import java.util.Optional;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * What carries one size on a fitted envelope: the protocol (and, across domains, the algorithm) the envelope takes
 * there, and the bus bandwidth at which it moves each further byte. Only the envelopes fit protocols; NCCL's tables
 * choose one too, but fit no efficiency a note could speak of.
 *
 * @param protocol  the protocol taken
 * @param label     how a reader names it: {@code LL128}, or {@code Tree/Simple} across domains
 * @param busBwGBps the carrier's bus bandwidth
 */
public record Carrier(Protocol protocol, String label, double busBwGBps) {

    /** The carrier of {@code bytes} on a fitted envelope; empty for any other model. */
    public static Optional<Carrier> of(CostModel model, double bytes, double[] theta) {
        return model.accept(new OtherwiseVisitor<Optional<Carrier>>() {
            @Override
            public Optional<Carrier> protocolEnvelope(ProtocolEnvelopeModel m) {
                Protocol p = m.chosen(bytes, theta);
                return Optional.of(new Carrier(p, p.label(), m.carrierBusBwGBps(bytes, theta)));
            }

            @Override
            public Optional<Carrier> algorithmEnvelope(AlgorithmEnvelopeModel m) {
                AlgorithmEnvelopeModel.Choice c = m.chosen(bytes, theta);
                return Optional.of(new Carrier(c.protocol(), c.label(), m.carrierBusBwGBps(bytes, theta)));
            }

            @Override
            protected Optional<Carrier> otherwise(CostModel m) {
                return Optional.empty();
            }
        });
    }
}
