package org.ncclharness.calibration.model;

/**
 * A {@link CostModelVisitor} for a question only some kinds of model answer (an envelope's switch points, NCCL's
 * crossover): the kinds it overrides answer for themselves, every other kind, a kind added later included, answers
 * {@link #otherwise}. A question every kind answers in its own way implements {@link CostModelVisitor} itself, so a
 * new kind does not compile until it is answered.
 *
 * @param <R> what the visit returns
 */
public abstract class OtherwiseVisitor<R> implements CostModelVisitor<R> {

    /** The answer of every kind this visitor does not override. */
    protected abstract R otherwise(CostModel m);

    @Override
    public R singleTier(SingleTierModel m) { return otherwise(m); }
    @Override
    public R protocolEnvelope(ProtocolEnvelopeModel m) { return otherwise(m); }
    @Override
    public R twoTier(TwoTierCostModel m) { return otherwise(m); }
    @Override
    public R algorithmEnvelope(AlgorithmEnvelopeModel m) { return otherwise(m); }
    @Override
    public R ncclTuner(NcclTunerModel m) { return otherwise(m); }
}
