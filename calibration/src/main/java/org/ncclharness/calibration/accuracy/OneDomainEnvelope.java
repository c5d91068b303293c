package org.ncclharness.calibration.accuracy;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.envelope.AlgorithmEnvelopeEstimator;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;
import org.ncclharness.calibration.model.CostModel;

/**
 * On one domain the algorithm envelope (f) is the protocol envelope (c) with ℓ_net = 0 and τ = 1
 * ({@link AlgorithmEnvelopeEstimator#oneDomainEnvelope}): the same fit of the same points, in its leave-one-out
 * refits and held-out splits too. For one run, (c) is scored with an estimator that keeps each θ it fits, per set of
 * points, and (f) with one that takes those θ (in its own terms) instead of fitting them a second time; (f) is still
 * scored by its own model, so its scores are the ones a refit gives. Where (f)'s envelope is not (c) (another
 * bandwidth ceiling, other hops) or the run has none of them, each candidate is scored with its own estimator.
 * Thread-safe: leave-one-out refits run in parallel.
 */
final class OneDomainEnvelope {

    private final ProtocolEnvelopeEstimator envelope;
    private final AlgorithmEnvelopeEstimator algorithms;
    /** θ of the envelope per set of points it was fitted on; empty where the fit found none. */
    private final Map<FitPoints, Optional<double[]>> thetas = new ConcurrentHashMap<>();

    private OneDomainEnvelope(ProtocolEnvelopeEstimator envelope, AlgorithmEnvelopeEstimator algorithms) {
        this.envelope = envelope;
        this.algorithms = algorithms;
    }

    /** For a run's candidates: shared where its algorithm envelope is its protocol envelope, else none. */
    static OneDomainEnvelope of(List<Candidate> candidates) {
        Optional<ProtocolEnvelopeEstimator> e = estimator(candidates, Candidates.ENVELOPE,
                ProtocolEnvelopeEstimator.class).filter(ProtocolEnvelopeEstimator::fitEfficiency);
        Optional<AlgorithmEnvelopeEstimator> a = estimator(candidates, Candidates.ALGORITHMS,
                AlgorithmEnvelopeEstimator.class);
        boolean same = e.isPresent() && a.isPresent() && a.get().oneDomainEnvelope()
                .filter(x -> sameFit(x, e.get())).isPresent();
        return same ? new OneDomainEnvelope(e.get(), a.get()) : new OneDomainEnvelope(null, null);
    }

    /** The estimator to score {@code c} with: the shared fits for (c) and (f) where they are one, else its own. */
    Estimator scoring(Candidate c) {
        if (envelope != null && c.estimator() == envelope) {
            return new Shared(envelope, this::envelopeTheta);
        }
        if (algorithms != null && c.estimator() == algorithms) {
            return new Shared(algorithms, p -> algorithms.fromEnvelope(envelopeTheta(p)));
        }
        return c.estimator();
    }

    /** Whether two envelope estimators fit alike: their names and descriptions do not enter the fit. */
    private static boolean sameFit(ProtocolEnvelopeEstimator a, ProtocolEnvelopeEstimator b) {
        return a.model().equals(b.model()) && a.fitEfficiency() == b.fitEfficiency()
                && Objects.equals(a.ceilingGBps(), b.ceilingGBps());
    }

    private static <T> Optional<T> estimator(List<Candidate> candidates, String model, Class<T> kind) {
        return candidates.stream().filter(c -> c.model().equals(model)).map(Candidate::estimator)
                .filter(kind::isInstance).map(kind::cast).findFirst();
    }

    /** The envelope's θ on these points: fitted the first time they are asked for, kept after. */
    private double[] envelopeTheta(FitPoints points) {
        Optional<double[]> kept = thetas.get(points);
        if (kept == null) {
            kept = Optional.ofNullable(envelope.estimate(points));
            thetas.putIfAbsent(points, kept);
        }
        return kept.map(double[]::clone).orElse(null);
    }

    /** An estimator whose θ comes from the shared fits: in all else {@code own}. */
    private record Shared(Estimator own, Function<FitPoints, double[]> theta) implements Estimator {
        @Override
        public String name() {
            return own.name();
        }

        @Override
        public String description() {
            return own.description();
        }

        @Override
        public CostModel model() {
            return own.model();
        }

        @Override
        public List<String> freeParameters() {
            return own.freeParameters();
        }

        @Override
        public double[] estimate(FitPoints points) {
            return theta.apply(points);
        }
    }
}
