package org.ncclharness.calibration.export;

import java.util.Optional;
import java.util.function.DoubleFunction;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;

/**
 * The (algorithm, protocol) a model takes at each size, for the models that choose one: the algorithm envelope
 * (Ring/Tree × protocols), the protocol envelope (a ring model: Ring × protocols) and NCCL's own tables. A one-line
 * model (method A, B, the two-tier forms) has no protocol to name: empty.
 */
final class ModelPicks extends OtherwiseVisitor<Optional<DoubleFunction<TunerPick>>> {

    private static final String RING = "Ring";

    private final double[] theta;

    private ModelPicks(double[] theta) {
        this.theta = theta.clone();
    }

    /** The model's pick per size (bytes as NCCL passes them to a tuner: nccl-tests' size column). */
    static Optional<DoubleFunction<TunerPick>> of(CostModel model, double[] theta) {
        return model.accept(new ModelPicks(theta));
    }

    @Override
    protected Optional<DoubleFunction<TunerPick>> otherwise(CostModel m) {
        return Optional.empty();
    }

    @Override
    public Optional<DoubleFunction<TunerPick>> algorithmEnvelope(AlgorithmEnvelopeModel m) {
        return Optional.of(b -> {
            AlgorithmEnvelopeModel.Choice c = m.chosen(b, theta);
            return new TunerPick(c.algorithm().label(), c.protocol());
        });
    }

    @Override
    public Optional<DoubleFunction<TunerPick>> protocolEnvelope(ProtocolEnvelopeModel m) {
        return Optional.of(b -> new TunerPick(RING, m.chosen(b, theta)));
    }

    @Override
    public Optional<DoubleFunction<TunerPick>> ncclTuner(NcclTunerModel m) {
        return Optional.of(b -> {
            NcclTunerModel.Choice c = m.choose(b);
            return new TunerPick(c.algorithm().label(), c.protocol());
        });
    }
}
