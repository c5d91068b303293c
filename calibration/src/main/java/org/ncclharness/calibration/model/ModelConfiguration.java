package org.ncclharness.calibration.model;

import com.fasterxml.jackson.annotation.JsonSubTypes;

/**
 * A model's configuration as a calibration report stores it ({@code calibrate --json}): one record per form, named
 * by the form, which is all that is needed to rebuild the model exactly.
 */
@JsonSubTypes({
    @JsonSubTypes.Type(value = SingleTierConfiguration.class, name = SingleTierModel.FORM),
    @JsonSubTypes.Type(value = ProtocolEnvelopeConfiguration.class, name = ProtocolEnvelopeModel.FORM),
    @JsonSubTypes.Type(value = TwoTierConfiguration.class, name = TwoTierCostModel.FORM),
    @JsonSubTypes.Type(value = AlgorithmEnvelopeConfiguration.class, name = AlgorithmEnvelopeModel.FORM),
    @JsonSubTypes.Type(value = NcclTunerConfiguration.class, name = NcclTunerModel.FORM)})
public sealed interface ModelConfiguration permits SingleTierConfiguration, ProtocolEnvelopeConfiguration,
        TwoTierConfiguration, AlgorithmEnvelopeConfiguration, NcclTunerConfiguration {

    /** The model this configuration describes. */
    CostModel model();
}
