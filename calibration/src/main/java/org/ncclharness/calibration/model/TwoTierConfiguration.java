package org.ncclharness.calibration.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.util.StdConverter;
import java.util.Objects;
import org.ncclharness.calibration.measure.Collective;

/**
 * What a {@link TwoTierCostModel} is evaluated at, as a report stores it. The collective (AllReduce, the only one
 * the two-tier forms describe) and N = d·g are written for a reader of the file and not read back.
 */
@JsonPropertyOrder({"collective", "shape", "domains", "gpusPerDomain", "ranks", "betaNvGBps", "hops"})
@JsonIgnoreProperties(value = {"collective", "ranks"}, allowGetters = true)
public record TwoTierConfiguration(
        @JsonSerialize(converter = ShapeId.class) @JsonDeserialize(converter = ShapeOfId.class) TwoTierForm shape,
        int domains, int gpusPerDomain, double betaNvGBps, int hops) implements ModelConfiguration {

    public TwoTierConfiguration {
        Objects.requireNonNull(shape, "shape is missing");
        if (!(betaNvGBps > 0)) {
            throw new IllegalArgumentException("betaNvGBps must be above 0, got " + betaNvGBps);
        }
    }

    @CollectiveName
    @JsonProperty("collective")
    public Collective collective() {
        return Collective.ALL_REDUCE;
    }

    @JsonProperty("ranks")
    public int ranks() {
        return domains * gpusPerDomain;
    }

    @Override
    public TwoTierCostModel model() {
        return new TwoTierCostModel(shape, new TwoTierConfig(domains, gpusPerDomain), betaNvGBps, hops);
    }

    /** A shape by its id ({@code flat-ring}). */
    static final class ShapeId extends StdConverter<TwoTierForm, String> {
        @Override
        public String convert(TwoTierForm f) {
            return f.id();
        }
    }

    /** The shape of an id. */
    static final class ShapeOfId extends StdConverter<String, TwoTierForm> {
        @Override
        public TwoTierForm convert(String id) {
            return TwoTierForm.byId(id).orElseThrow(() -> new IllegalArgumentException("unknown two-tier shape " + id));
        }
    }
}
