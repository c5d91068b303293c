package org.ncclharness.calibration.model;

import java.util.Objects;
import org.ncclharness.calibration.measure.Collective;

/** What a {@link SingleTierModel} is evaluated at, as a report stores it. */
public record SingleTierConfiguration(@CollectiveName Collective collective, int ranks, int hops,
                                      LatencyRule latencyRule) implements ModelConfiguration {

    public SingleTierConfiguration {
        Objects.requireNonNull(collective, "collective is missing");
        Objects.requireNonNull(latencyRule, "latencyRule is missing");
    }

    @Override
    public SingleTierModel model() {
        return new SingleTierModel(collective, ranks, hops, latencyRule);
    }
}
