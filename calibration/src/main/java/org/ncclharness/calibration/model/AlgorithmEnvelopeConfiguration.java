package org.ncclharness.calibration.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import org.ncclharness.calibration.measure.Collective;

/**
 * What an {@link AlgorithmEnvelopeModel} is evaluated at, as a report stores it. N = d·g is written for a reader
 * of the file and not read back; {@code ringOnly} is written only where the run forced Ring.
 */
@JsonPropertyOrder({"collective", "domains", "gpusPerDomain", "ranks", "hops", "ringOnly"})
@JsonIgnoreProperties(value = "ranks", allowGetters = true)
public record AlgorithmEnvelopeConfiguration(@CollectiveName Collective collective, int domains, int gpusPerDomain,
                                             int hops, @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean ringOnly)
        implements ModelConfiguration {

    public AlgorithmEnvelopeConfiguration {
        Objects.requireNonNull(collective, "collective is missing");
    }

    @JsonProperty("ranks")
    public int ranks() {
        return domains * gpusPerDomain;
    }

    @Override
    public AlgorithmEnvelopeModel model() {
        return new AlgorithmEnvelopeModel(collective, new TwoTierConfig(domains, gpusPerDomain), hops, ringOnly);
    }
}
