package org.ncclharness.calibration.model;

import java.util.Map;
import java.util.function.Function;
import org.ncclharness.calibration.nccl.NcclTunerModel;
import org.ncclharness.calibration.protocol.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.protocol.ProtocolEnvelopeModel;

/**
 * Rebuilds a {@link CostModel} from the form name and configuration a calibration report stores. A new model
 * form (two-tier, protocol envelope) adds one entry to {@link #FORMS}.
 */
public final class CostModels {

    private static final Map<String, Function<Map<String, ?>, CostModel>> FORMS = Map.of(
            SingleTierModel.FORM, SingleTierModel::fromConfiguration,
            TwoTierCostModel.FORM, TwoTierCostModel::fromConfiguration,
            ProtocolEnvelopeModel.FORM, ProtocolEnvelopeModel::fromConfiguration,
            AlgorithmEnvelopeModel.FORM, AlgorithmEnvelopeModel::fromConfiguration,
            NcclTunerModel.FORM, NcclTunerModel::fromConfiguration);

    private CostModels() {
    }

    public static CostModel rebuild(String form, Map<String, ?> configuration) {
        Function<Map<String, ?>, CostModel> f = FORMS.get(form);
        if (f == null) {
            throw new IllegalArgumentException("unknown model form " + form + " (known: " + FORMS.keySet() + ")");
        }
        return f.apply(configuration);
    }
}
