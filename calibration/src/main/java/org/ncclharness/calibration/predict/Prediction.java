package org.ncclharness.calibration.predict;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.CostModelVisitor;
import org.ncclharness.calibration.model.NcclTunerModel.Candidate;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.OtherwiseVisitor;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.RingTree;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * One predicted time, split into its latency and bandwidth terms, with the algorithm and protocol the model
 * chose and what the other algorithm would take.
 *
 * @param bytes       the size (nccl-tests {@code size} column)
 * @param timeUs      predicted time
 * @param latencyUs   the latency term (α of the chosen algorithm/protocol)
 * @param bandwidthUs the bandwidth term (time − latency)
 * @param algorithm   {@code Ring}, or NCCL's choice
 * @param protocol    the protocol chosen, empty where the model has one bandwidth for all
 * @param alternative the other algorithm, empty where the model cannot say
 */
public record Prediction(double bytes, double timeUs, double latencyUs, double bandwidthUs, String algorithm,
                         Optional<String> protocol, Optional<Alternative> alternative) {

    /**
     * The algorithm not chosen.
     *
     * @param algorithm      its name
     * @param timeUs         what it would take
     * @param crossoverBytes where the two algorithms take equally long, empty when one always wins
     * @param basis          how it was computed
     * @param crossover      the crossover in words ({@code Tree is faster below 8 MiB, Ring above})
     */
    public record Alternative(String algorithm, double timeUs, OptionalDouble crossoverBytes, String basis,
                              String crossover) {
    }

    public static Prediction of(PredictionModel pm, double bytes) {
        double t = pm.timeUs(bytes);
        double[] theta = pm.theta();
        return pm.model().accept(new CostModelVisitor<Prediction>() {
            @Override
            public Prediction singleTier(SingleTierModel s) {
                double alpha = s.alphaUs(theta);
                return new Prediction(bytes, t, alpha, t - alpha, "Ring", Optional.empty(),
                        tree(s.collective(), s.ranks(), alpha, theta[1], bytes, ""));
            }

            @Override
            public Prediction protocolEnvelope(ProtocolEnvelopeModel e) {
                Protocol p = e.chosen(bytes, theta);
                double alpha = e.alphaUs(p, theta);
                double bw = ProtocolEnvelopeModel.efficiency(p, theta) * theta[ProtocolEnvelopeModel.BETA_INDEX];
                return new Prediction(bytes, t, alpha, t - alpha, algorithm(e.collective(), "Ring"),
                        Optional.of(p.label()), tree(e.collective(), e.ranks(), alpha, bw, bytes, "with " + p.label()
                        + "'s latency and bandwidth (the protocol at this size; another size's protocol moves it): "));
            }

            /** The two-tier forms' latency term is their time at zero bytes. */
            @Override
            public Prediction twoTier(TwoTierCostModel tt) {
                double latency = pm.timeUs(0);
                return new Prediction(bytes, t, latency, t - latency, "two-tier " + tt.shape().id(), Optional.empty(),
                        Optional.empty());
            }

            @Override
            public Prediction algorithmEnvelope(AlgorithmEnvelopeModel a) {
                AlgorithmEnvelopeModel.Choice c = a.chosen(bytes, theta);
                double alpha = a.alphaUs(c.algorithm(), c.protocol(), theta);
                // the envelope is the fastest of Ring/Tree x protocols; beside its pick, the other algorithm's best
                return new Prediction(bytes, t, alpha, t - alpha, algorithm(a.collective(), c.algorithm().label()),
                        Optional.of(c.protocol().label()), otherAlgorithm(a, c, bytes, theta));
            }

            @Override
            public Prediction ncclTuner(NcclTunerModel n) {
                NcclTunerModel.Choice c = n.choose(bytes);
                return new Prediction(bytes, t, c.latencyUs(), t - c.latencyUs(), c.algorithm().label(),
                        Optional.of(c.protocol().label()), otherAlgorithm(n, c, bytes));
            }
        });
    }

    /**
     * The algorithm a ring-step model names: NCCL's, for a collective its tuner picks one for; for the others
     * (AllToAll, ...) NCCL sends point to point, and the model's ring is only its step count.
     */
    private static String algorithm(Collective c, String ring) {
        return Algorithm.tuned(c) ? ring : "point-to-point (NCCL has no ring for " + c.ncclName() + "; the model"
                + " counts its N-1 peer exchanges as steps)";
    }

    /**
     * Tree in its ideal form (docs/calibration.md) with the ring's own per-step latency and bandwidth (root links as
     * fast as the ring's, binary tree): AllReduce only. {@code basis} prefixes the crossover: the envelope's ring
     * differs per protocol, so its crossover holds for the protocol of this size only.
     */
    private static Optional<Alternative> tree(Collective c, int ranks, double alphaUs, double betaGBps, double bytes,
                                              String basis) {
        if (c != Collective.ALL_REDUCE) {
            return Optional.empty();
        }
        RingTree rt = RingTree.besideRing(ranks, alphaUs, betaGBps);
        OptionalDouble x = rt.crossoverBytes();
        String words = basis + (x.isPresent() ? String.format(Locale.ROOT, "Tree is faster below %s (%.0f bytes),"
                + " Ring above", SizeText.approx(x.getAsDouble()), x.getAsDouble())
                : rt.treeLatencyUs() < rt.ringLatencyUs() ? "Tree is faster at every size"
                : "Ring is faster at every size");
        return Optional.of(new Alternative("Tree", rt.treeUs(bytes), x,
                "T_tree = 2D/B_root + 2h*L, binary tree (h = " + rt.treeDepth() + "), B_root = B and L = alpha/(2(N-1))"
                        + " of this ring", words));
    }

    /**
     * Ring and Tree in their ideal forms (docs/calibration.md) for a single-tier α-β AllReduce model (the ring formula,
     * A, B, B+beta, naive, datasheet), Tree {@link RingTree#besideRing beside the ring}; empty for any other model or
     * collective.
     */
    public static Optional<RingTree> ringTree(PredictionModel pm) {
        double[] theta = pm.theta();
        return pm.model().accept(new OtherwiseVisitor<Optional<RingTree>>() {
            @Override
            public Optional<RingTree> singleTier(SingleTierModel s) {
                return s.collective() == Collective.ALL_REDUCE
                        ? Optional.of(RingTree.besideRing(s.ranks(), s.alphaUs(theta), theta[1])) : Optional.empty();
            }

            @Override
            protected Optional<RingTree> otherwise(CostModel m) {
                return Optional.empty();
            }
        });
    }

    /** The algorithm the envelope did not pick, on its fastest protocol, and where the two change places. */
    private static Optional<Alternative> otherAlgorithm(AlgorithmEnvelopeModel a, AlgorithmEnvelopeModel.Choice chosen,
                                                        double bytes, double[] theta) {
        Algorithm other = chosen.algorithm() == Algorithm.RING ? Algorithm.TREE : Algorithm.RING;
        OptionalDouble otherUs = a.fastestUs(other, bytes, theta);
        if (otherUs.isEmpty()) {
            return Optional.empty();
        }
        List<Double> x = a.treeRingCrossovers(theta);
        boolean treeFirst = a.fastestUs(Algorithm.TREE, 1, theta).getAsDouble()
                < a.fastestUs(Algorithm.RING, 1, theta).getAsDouble();
        String words = x.isEmpty() ? "in this model " + (treeFirst ? "Tree" : "Ring") + " is faster at every size from"
                + " 1 B to 1 TiB"
                : x.size() == 1 ? String.format(Locale.ROOT, "%s is faster below %s (%.0f bytes), %s above",
                treeFirst ? "Tree" : "Ring", SizeText.approx(x.get(0)), x.get(0), treeFirst ? "Ring" : "Tree")
                : "Ring and Tree change places at " + x.stream().map(b -> String.format(Locale.ROOT, "%s (%.0f bytes)",
                SizeText.approx(b), b)).collect(java.util.stream.Collectors.joining(", "));
        return Optional.of(new Alternative(other.label(), otherUs.getAsDouble(), x.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(x.get(0)), "the algorithm envelope's " + other.label() + " on its fastest"
                + " protocol, at this configuration", words));
    }

    private static Optional<Alternative> otherAlgorithm(NcclTunerModel n, NcclTunerModel.Choice chosen, double bytes) {
        Algorithm other = chosen.algorithm() == Algorithm.RING ? Algorithm.TREE : Algorithm.RING;
        Optional<Candidate> best = n.fastest(other, bytes);
        OptionalDouble x = n.treeRingCrossoverBytes();
        String words = x.isPresent() ? String.format(Locale.ROOT, "NCCL's best Ring and best Tree change places at"
                + " %s (%.0f bytes)", SizeText.approx(x.getAsDouble()), x.getAsDouble())
                : "in NCCL's tables " + chosen.algorithm().label() + " is faster at every size from 1 B to 1 TiB";
        return best.map(c -> new Alternative(other.label() + "/" + c.protocol().label(), n.time(c, bytes), x,
                "NCCL's tuner tables, fastest protocol of " + other.label(), words));
    }


}
