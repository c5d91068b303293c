package org.ncclharness.calibration.model;

import java.util.Objects;
import org.ncclharness.calibration.measure.Collective;

/** What an {@link NcclTunerModel} is evaluated at, as a report stores it (its components, documented there). */
public record NcclTunerConfiguration(@CollectiveName Collective collective, int ranks, int nodes, int sm,
                                     String intraLink, int channels, double bwIntraGBps, double bwInterGBps,
                                     String version) implements ModelConfiguration {

    public NcclTunerConfiguration {
        Objects.requireNonNull(collective, "collective is missing");
        Objects.requireNonNull(intraLink, "intraLink is missing");
        Objects.requireNonNull(version, "version is missing");
        if (!(bwIntraGBps > 0) || !(bwInterGBps > 0)) {
            throw new IllegalArgumentException("bwIntraGBps and bwInterGBps must be above 0, got " + bwIntraGBps
                    + " and " + bwInterGBps);
        }
    }

    @Override
    public NcclTunerModel model() {
        return new NcclTunerModel(collective, ranks, nodes, sm, intraLink, channels, bwIntraGBps, bwInterGBps,
                version);
    }
}
