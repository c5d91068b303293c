package org.ncclharness.calibration.model;

/**
 * One case per kind of {@link CostModel}: the only place a caller learns which model it holds. Every method is
 * abstract, so a new kind of model does not compile until every visitor says what it does with it; a question
 * only some kinds answer extends {@link OtherwiseVisitor} instead.
 *
 * @param <R> what the visit returns
 */
public interface CostModelVisitor<R> {

    R singleTier(SingleTierModel m);

    R protocolEnvelope(ProtocolEnvelopeModel m);

    R twoTier(TwoTierCostModel m);

    R algorithmEnvelope(AlgorithmEnvelopeModel m);

    R ncclTuner(NcclTunerModel m);
}
