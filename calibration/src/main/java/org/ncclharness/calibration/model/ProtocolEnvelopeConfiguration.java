package org.ncclharness.calibration.model;

import java.util.Objects;
import org.ncclharness.calibration.measure.Collective;

/** What a {@link ProtocolEnvelopeModel} is evaluated at, as a report stores it. */
public record ProtocolEnvelopeConfiguration(@CollectiveName Collective collective, int ranks, int hops)
        implements ModelConfiguration {

    public ProtocolEnvelopeConfiguration {
        Objects.requireNonNull(collective, "collective is missing");
    }

    @Override
    public ProtocolEnvelopeModel model() {
        return new ProtocolEnvelopeModel(collective, ranks, hops);
    }
}
