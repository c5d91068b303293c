package org.ncclharness.calibration.accuracy;

import java.util.List;
import java.util.OptionalDouble;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel.SwitchPoint;

/** What the accuracy page shows that only one kind of model has. */
final class ModelDetails {

    private ModelDetails() {
    }

    /** The protocol envelope's switch points at θ; none for any other model. */
    static List<SwitchPoint> switchPoints(CostModel model, double[] theta) {
        return model.accept(new OtherwiseVisitor<List<SwitchPoint>>() {
            @Override
            public List<SwitchPoint> protocolEnvelope(ProtocolEnvelopeModel m) {
                return m.switchPoints(theta);
            }

            @Override
            protected List<SwitchPoint> otherwise(CostModel m) {
                return List.of();
            }
        });
    }

    /** Where NCCL's tables put the Tree/Ring crossover; empty for a model that is not NCCL's tables, or has none. */
    static OptionalDouble ncclCrossoverBytes(CostModel model) {
        return model.accept(new OtherwiseVisitor<OptionalDouble>() {
            @Override
            public OptionalDouble ncclTuner(NcclTunerModel m) {
                return m.treeRingCrossoverBytes();
            }

            @Override
            protected OptionalDouble otherwise(CostModel m) {
                return OptionalDouble.empty();
            }
        });
    }
}
