package org.ncclharness.calibration.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import org.ncclharness.calibration.measure.Collective;

/**
 * What an {@link AlgorithmEnvelopeModel} is evaluated at, as a report stores it. N = d·g is written for a reader
 * of the file and not read back; {@code ringOnly} is written only where the run forced Ring, {@code nvls} only where NVLS was allowed.
 */
@JsonPropertyOrder({"collective", "domains", "gpusPerDomain", "ranks", "hops", "ringOnly", "nvls"})
@JsonIgnoreProperties(value = "ranks", allowGetters = true)
public record AlgorithmEnvelopeConfiguration(@CollectiveName Collective collective, int domains, int gpusPerDomain,
                                             int hops, @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean ringOnly,
                                             @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean nvls)
        implements ModelConfiguration {

    public AlgorithmEnvelopeConfiguration(Collective collective, int domains, int gpusPerDomain, int hops,
                                          boolean ringOnly) {
        this(collective, domains, gpusPerDomain, hops, ringOnly, false);
    }

    public AlgorithmEnvelopeConfiguration {
        Objects.requireNonNull(collective, "collective is missing");
    }

    @JsonProperty("ranks")
    public int ranks() {
        return domains * gpusPerDomain;
    }

    @Override
    public AlgorithmEnvelopeModel model() {
        return new AlgorithmEnvelopeModel(collective, new TwoTierConfig(domains, gpusPerDomain), hops, ringOnly, nvls);
    }
}
