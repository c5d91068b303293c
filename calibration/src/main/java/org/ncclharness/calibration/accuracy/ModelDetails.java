package org.ncclharness.calibration.accuracy;

import java.util.List;
import java.util.OptionalDouble;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.CostModelVisitor;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel.SwitchPoint;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.TwoTierCostModel;

/** What the accuracy page shows that only one kind of model has. */
final class ModelDetails {

    private ModelDetails() {
    }

    /** The protocol envelope's switch points at θ; none for any other model. */
    static List<SwitchPoint> switchPoints(CostModel model, double[] theta) {
        return model.accept(new CostModelVisitor<List<SwitchPoint>>() {
            @Override
            public List<SwitchPoint> singleTier(SingleTierModel m) {
                return List.of();
            }

            @Override
            public List<SwitchPoint> protocolEnvelope(ProtocolEnvelopeModel m) {
                return m.switchPoints(theta);
            }

            @Override
            public List<SwitchPoint> twoTier(TwoTierCostModel m) {
                return List.of();
            }

            @Override
            public List<SwitchPoint> algorithmEnvelope(AlgorithmEnvelopeModel m) {
                return List.of();
            }

            @Override
            public List<SwitchPoint> ncclTuner(NcclTunerModel m) {
                return List.of();
            }
        });
    }

    /** Where NCCL's tables put the Tree/Ring crossover; empty for a model that is not NCCL's tables, or has none. */
    static OptionalDouble ncclCrossoverBytes(CostModel model) {
        return model.accept(new CostModelVisitor<OptionalDouble>() {
            @Override
            public OptionalDouble singleTier(SingleTierModel m) {
                return OptionalDouble.empty();
            }

            @Override
            public OptionalDouble protocolEnvelope(ProtocolEnvelopeModel m) {
                return OptionalDouble.empty();
            }

            @Override
            public OptionalDouble twoTier(TwoTierCostModel m) {
                return OptionalDouble.empty();
            }

            @Override
            public OptionalDouble algorithmEnvelope(AlgorithmEnvelopeModel m) {
                return OptionalDouble.empty();
            }

            @Override
            public OptionalDouble ncclTuner(NcclTunerModel m) {
                return m.treeRingCrossoverBytes();
            }
        });
    }
}
