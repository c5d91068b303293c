package org.ncclharness.calibration.model;

import java.util.Optional;
import org.ncclharness.calibration.measure.Collective;

/**
 * A communication cost model: a time T(M; θ) in µs for a message of M bytes at one configuration. A model knows
 * nothing of where its data came from or how θ is chosen; the fitting lives in
 * {@code org.ncclharness.calibration.fit}.
 *
 * <p>The models are a closed set. What every model answers is a method here; where a caller needs what only one
 * kind has (an envelope's protocols, NCCL's tables), it asks through {@link #accept}, the one place that tells the
 * kinds apart: no caller tests which model it holds.
 *
 * <p>{@link #form()} and {@link #configuration()} describe the model completely, so that a calibration report can
 * rebuild it exactly ({@link ModelConfiguration#model()}).
 */
public sealed interface CostModel extends ParametricTime
        permits SingleTierModel, EnvelopeCostModel, TwoTierCostModel, NcclTunerModel {

    /** The model's form name, as a calibration report stores it ({@code single-tier-ring}). */
    String form();

    /** The configuration the model is evaluated at (collective, ranks, hops, ...). */
    ModelConfiguration configuration();

    /** The collective timed. */
    Collective collective();

    /** N of the configuration. */
    int ranks();

    /** d domains × g GPUs of a model across NVLink domains; empty for a model that has no domains. */
    default Optional<TwoTierConfig> domains() {
        return Optional.empty();
    }

    /**
     * Whether the model has one tier: no term for a network that another host count, or another share of GPUs per
     * host, adds or removes. The single-tier α-β model and the protocol envelope say so; the others have such a
     * term (the domains of the two-tier models, NCCL's node count).
     */
    default boolean oneTier() {
        return false;
    }

    /**
     * The same model, its parameters carried over, at another scale: N alone for a one-tier model, d × g for a model
     * across domains, N over hosts for NCCL's tables.
     *
     * @throws ScaleRefused where the GPUs do not make whole domains or do not split evenly over the hosts
     */
    CostModel at(Scale scale);

    /** What {@code visitor} does with this kind of model. */
    <R> R accept(CostModelVisitor<R> visitor);
}
