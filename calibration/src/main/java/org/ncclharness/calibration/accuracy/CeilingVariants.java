package org.ncclharness.calibration.accuracy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.ncclharness.calibration.accuracy.AccuracyReport.ModelScores;
import org.ncclharness.calibration.calibrate.Candidates;
import org.ncclharness.calibration.calibrate.Candidates.Candidate;
import org.ncclharness.calibration.fit.Estimator;
import org.ncclharness.calibration.fit.Fit;
import org.ncclharness.calibration.fit.FitPoints;
import org.ncclharness.calibration.fit.Fitter;
import org.ncclharness.calibration.fit.envelope.AlgorithmEnvelopeEstimator;
import org.ncclharness.calibration.fit.envelope.ProtocolEnvelopeEstimator;

/**
 * The bound that has an alternative in code: a multi-domain run's envelopes hold β under the NICs' ceiling
 * ({@code RunBandwidthCeiling}); without it they are the same estimators with {@code withCeiling(null)}. Scored on the
 * held-out splits (not leave-one-out: no per-run pick takes them), so that the leave-one-cluster-out scores choose
 * the bound or its absence on the other clusters. On a run with no ceiling the variant is the bounded fit itself.
 */
final class CeilingVariants {

    static final String SUFFIX = "-no-ceiling";
    static final List<String> BOUNDED = List.of(Candidates.ENVELOPE, Candidates.ALGORITHMS);

    private CeilingVariants() {
    }

    static String name(String bounded) {
        return bounded + SUFFIX;
    }

    /** Per bounded family the run has fitted, its variant without the ceiling. */
    static List<ModelScores> of(List<Candidate> candidates, List<ModelScores> scored, FitPoints points) {
        List<ModelScores> out = new ArrayList<>();
        for (String family : BOUNDED) {
            Optional<Candidate> c = candidates.stream().filter(x -> x.model().equals(family) && x.estimator() != null)
                    .findFirst();
            Optional<ModelScores> bounded = scored.stream().filter(m -> m.model().equals(family) && m.applies())
                    .findFirst();
            if (c.isEmpty() || bounded.isEmpty()) {
                continue;
            }
            Optional<Estimator> free = unbounded(c.get().estimator());
            out.add(free.map(e -> score(name(family), e, points)).orElseGet(() -> renamed(bounded.get())));
        }
        return out;
    }

    /** The estimator without its ceiling; empty where it has none (the variant is the same fit). */
    private static Optional<Estimator> unbounded(Estimator e) {
        if (e instanceof ProtocolEnvelopeEstimator p && p.ceilingGBps() != null) {
            return Optional.of(p.withCeiling(null));
        }
        if (e instanceof AlgorithmEnvelopeEstimator a && a.ceilingGBps() != null) {
            return Optional.of(a.withCeiling(null));
        }
        return Optional.empty();
    }

    private static ModelScores score(String name, Estimator e, FitPoints points) {
        Fit in = Fitter.inSample(e, points, List.of());
        return new ModelScores(name, e.freeParameters().size(), in.inSample(), null, OptionalDouble.empty(),
                "not scored: a bound variant, scored on the held-out splits only", null,
                HeldOut.interleaved(e, points), HeldOut.extrapolation(e, points), List.of());
    }

    private static ModelScores renamed(ModelScores m) {
        return new ModelScores(name(m.model()), m.k(), m.inSample(), m.leaveOneOut(), m.leaveOneOutPct(),
                m.leaveOneOutNote(), m.reason(), m.interleaved(), m.extrapolation(), m.switchPoints());
    }
}
