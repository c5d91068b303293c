package org.ncclharness.calibration.model;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * The protocol envelope across domains, with NCCL's algorithms at scale (src/graph/tuning.cc's shapes, its
 * constants fitted): the time is the fastest of every (algorithm, protocol) NCCL could pick,
 * T(M) = min_{a,p} α_{a,p} + c_a·M/(η_p·τ_a·β), on d domains of g GPUs (N = d·g).
 *
 * <ul>
 *   <li>Ring, as NCCL (and for the collectives NCCL sends point to point, their peer exchanges): S steps of h hops
 *       at ℓ_p each, of which S_net cross a domain boundary and pay ℓ_net more, α = S·h·ℓ_p + S_net·ℓ_net; c the
 *       share of the bytes that crosses the slower tier. S, S_net and c are the collective's {@link RingSteps}
 *       pattern: AllReduce 2(N−1), 2(d−1), 2(N−1)/N; AllGather and ReduceScatter N−1, d−1, (N−1)/N; Broadcast and
 *       Reduce, a pipelined chain, N−1, d−1, 1; AllToAll N−1 peer exchanges, N−g with other domains' peers,
 *       (N−g)/N.</li>
 *   <li>Tree (AllReduce on d ≥ 2 only), as NCCL: up and down an intra-domain chain of g−1 steps and
 *       ⌊log2 d⌋ inter-domain steps, α = 2·((g−1)·h·ℓ_p + ⌊log2 d⌋·(h·ℓ_p + ℓ_net)); c = 2 (each rank's data goes
 *       up and comes down once), at τ times the ring's bandwidth (NCCL's tree factors, fitted).</li>
 * </ul>
 * β is the ring's bus bandwidth, limited by the slower tier (a ring crosses every boundary at the network's
 * rate), η_p the protocols' shares of it as in the single-tier envelope. Every parameter is per hop, per step or
 * per byte, so a model fitted at one d × g predicts another ({@link #at}). On one domain neither ℓ_net nor τ enters
 * and this is {@link ProtocolEnvelopeModel} exactly. NVLS and SHARP reduce in the network: where a run used them
 * the fitted β is above the line rate and the report's NVLS flag says why; their own latency shape is not modelled.
 *
 * <p>θ = (ℓ_LL, ℓ_LL128, ℓ_Simple, β, η_LL, η_LL128, ℓ_net, τ).
 *
 * <p>A model is its collective, configuration and hops (equal when those are); not a record only because it
 * keeps the per-algorithm coefficients those give.
 */
public final class AlgorithmEnvelopeModel implements EnvelopeCostModel {

    public static final String FORM = "algorithm-envelope";
    public static final int NET_LATENCY = 6;
    public static final int TREE_FACTOR = 7;
    private static final int BETA = ProtocolEnvelopeModel.BETA_INDEX;
    private static final List<String> NAMES = List.of("llLinkLatencyUs", "ll128LinkLatencyUs",
            "simpleLinkLatencyUs", ProtocolEnvelopeModel.BETA, "llEfficiency", "ll128Efficiency",
            "netStepLatencyUs", "treeBandwidthFactor");
    private static final double BYTES_PER_US_PER_GBPS = 1e3;
    private static final Protocol[] PROTOCOL_VALUES = Protocol.values();
    private static final int PROTOCOLS = PROTOCOL_VALUES.length;
    /** NCCL's index order, Tree first: its tuner keeps the first of equal times. */
    private static final Algorithm[] ALGORITHMS = Algorithm.values();
    private static final int RING_INDEX = Algorithm.RING.ordinal();
    private static final int SIMPLE = Protocol.SIMPLE.ordinal();
    private static final int LL128_INDEX = Protocol.LL128.ordinal();
    private static final double TREE_BUS_FACTOR = 2;
    /** Two latency mixes (net/link) closer than this, relatively, are one. */
    private static final double SAME_MIX = 1e-9;

    private final Collective collective;
    private final RingSteps.Pattern pattern;
    private final TwoTierConfig config;
    private final int hops;
    // α per unit of ℓ_p and of ℓ_net, and the bus factor, per algorithm (by ordinal): constants of the
    // configuration, computed once because the fits evaluate the model millions of times
    private final double[] link = new double[ALGORITHMS.length];
    private final double[] net = new double[ALGORITHMS.length];
    private final double[] bus = new double[ALGORITHMS.length];
    private final int firstAlgorithm;
    /** The run forced NCCL_ALGO=Ring: Tree was never a candidate, so the model has none. */
    private final boolean ringOnly;
    /** LL128 is a candidate: not for the point-to-point collectives ({@link Protocol#runs}). */
    private final boolean ll128;
    /**
     * Tree has at least Ring's steps and bus factor here (one GPU on each of two domains: the same two steps, twice
     * the bytes), so at τ ≤ 1 it is never the faster: the data cannot show τ.
     */
    private final boolean treeDominated;

    public AlgorithmEnvelopeModel(Collective collective, TwoTierConfig config, int hops) {
        this(collective, config, hops, false);
    }

    /** @param ringOnly the run forced Ring ({@link #ringForced}): no Tree candidate, no tree factor */
    public AlgorithmEnvelopeModel(Collective collective, TwoTierConfig config, int hops, boolean ringOnly) {
        RingSteps.requireRing(config.ranks(), hops);
        this.collective = collective;
        this.pattern = RingSteps.of(collective);
        this.config = config;
        this.hops = hops;
        this.ringOnly = ringOnly;
        this.ll128 = Protocol.LL128.runs(collective);
        int log2 = 31 - Integer.numberOfLeadingZeros(config.domains());
        for (Algorithm a : ALGORITHMS) {
            boolean ring = a == Algorithm.RING;
            link[a.ordinal()] = ring ? (double) pattern.steps(config.ranks()) * hops
                    : 2.0 * ((config.gpusPerDomain() - 1) + log2) * hops;
            net[a.ordinal()] = ring ? netSteps() : 2.0 * log2;
            bus[a.ordinal()] = ring ? pattern.busCoefficient(collective, config) : TREE_BUS_FACTOR;
        }
        this.firstAlgorithm = treeApplies() ? 0 : RING_INDEX;
        this.treeDominated = treeApplies()
                && link[Algorithm.TREE.ordinal()] >= link[RING_INDEX] && net[Algorithm.TREE.ordinal()] >= net[RING_INDEX]
                && bus[Algorithm.TREE.ordinal()] >= bus[RING_INDEX];
    }

    @Override
    public Collective collective() {
        return collective;
    }

    @Override
    public int ranks() {
        return config.ranks();
    }

    @Override
    public Optional<TwoTierConfig> domains() {
        return Optional.of(config);
    }


    /** Domains × GPUs per domain. */
    public TwoTierConfig config() {
        return config;
    }

    /** Physical hops per intra-domain step. */
    public int hops() {
        return hops;
    }

    /** Whether a run's NCCL_ALGO (as its log or metadata gives it, any case) leaves Ring as the only algorithm. */
    public static boolean ringForced(String forcedAlgo) {
        return forcedAlgo != null && forcedAlgo.trim().equalsIgnoreCase("ring");
    }

    /** Equal where the configurations are (the coefficients follow from them). */
    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass()
                && ((AlgorithmEnvelopeModel) o).configuration().equals(configuration());
    }

    @Override
    public int hashCode() {
        return configuration().hashCode();
    }

    @Override
    public String toString() {
        return "AlgorithmEnvelopeModel[collective=" + collective + ", config=" + config + ", hops=" + hops
                + (ringOnly ? ", ring only" : "") + "]";
    }

    /** The (algorithm, protocol) the envelope takes at one size. */
    public record Choice(Algorithm algorithm, Protocol protocol) {
        public String label() {
            return algorithm.label() + "/" + protocol.label();
        }
    }

    @Override
    public String form() {
        return FORM;
    }

    @Override
    public AlgorithmEnvelopeConfiguration configuration() {
        return new AlgorithmEnvelopeConfiguration(collective, config.domains(), config.gpusPerDomain(), hops, ringOnly);
    }

    @Override
    public List<String> parameterNames() {
        return NAMES;
    }

    public boolean multiDomain() {
        return config.domains() > 1;
    }

    /** Whether LL128 is a candidate (its latency and η enter the model). */
    public boolean ll128() {
        return ll128;
    }

    /** Whether Tree is among the candidates: NCCL's tree AllReduce, across domains, where Ring was not forced. */
    public boolean treeApplies() {
        return !ringOnly && pattern.treeCandidate() && multiDomain();
    }

    /**
     * Whether the fit can see Tree: it is a candidate and not slower than Ring at every size whatever τ (≤ 1,
     * NCCL's ceiling being 0.92). Where it is not, τ is not a free parameter.
     */
    public boolean treeDetermined() {
        return treeApplies() && !treeDominated;
    }

    /** Whether ℓ_net is told apart from the links' ℓ_p by this configuration alone ({@link #netLatencyDetermined(List)}). */
    public boolean netLatencyDetermined() {
        return netLatencyDetermined(List.of(this));
    }

    /**
     * Whether runs at these configurations tell ℓ_net apart from the links' ℓ_p: only where the candidates the data
     * can show mix the two in different proportions. Each candidate's α is link·ℓ_p + net·ℓ_net; where net/link is one
     * ratio r for all of them, ℓ_p + r·ℓ_net is all the data decide and any split of it fits alike. So it is not
     * with one GPU per domain (every step crosses: r = 1/h for every algorithm), nor on one configuration where Ring
     * is the only candidate (every collective but AllReduce, or a run that forced Ring); it is where Tree can win
     * beside Ring, or across runs at several configurations.
     */
    public static boolean netLatencyDetermined(List<AlgorithmEnvelopeModel> models) {
        double first = Double.NaN;
        for (AlgorithmEnvelopeModel m : models) {
            for (Algorithm a : m.treeDetermined() ? List.of(Algorithm.RING, Algorithm.TREE) : List.of(Algorithm.RING)) {
                double r = m.netCoefficient(a) / m.linkCoefficient(a);
                if (Double.isNaN(first)) {
                    first = r;
                } else if (Math.abs(r - first) > SAME_MIX * Math.max(r, first)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Why Tree is not among the candidates, for a reader; empty where it is. */
    public java.util.Optional<String> whyNoTree() {
        if (treeDetermined()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(ringOnly ? "the run forced NCCL_ALGO=Ring"
                : !pattern.treeCandidate() ? "NCCL's Tree is AllReduce's, this is " + collective.ncclName()
                : treeDominated ? "with one GPU on each of two domains Tree takes Ring's two steps with twice the"
                + " bytes: never the faster, so its factor is not fitted"
                : "on one domain Tree has no steps across domains: the model is the protocol envelope");
    }

    /** Ring steps that cross a domain boundary (NCCL's nInterSteps). */
    public int netSteps() {
        return pattern.netSteps(config);
    }

    /**
     * The model's β for a bus bandwidth as nccl-tests prints it (f·M/T as M grows): the same where Ring's bytes all
     * cross the slower tier (c = f), (N−g)/(N−1) of it for a peer exchange across domains, whose printed busbw counts
     * the exchanges that stay within a domain too.
     */
    public double betaOfBusBw(double busBwGBps) {
        return busBwGBps * bus[RING_INDEX] / collective.busFactor(config.ranks());
    }

    /** α per unit of ℓ_p for an algorithm. */
    public double linkCoefficient(Algorithm a) {
        return link[a.ordinal()];
    }

    /** The bus factor c_a of an algorithm's bandwidth term (the collective's for Ring, 2 for Tree). */
    public double busCoefficient(Algorithm a) {
        return bus[a.ordinal()];
    }

    /** α per unit of ℓ_net for an algorithm. */
    public double netCoefficient(Algorithm a) {
        return net[a.ordinal()];
    }

    public static double efficiency(int protocol, double[] theta) {
        return protocol == SIMPLE ? 1.0 : theta[ProtocolEnvelopeModel.efficiencyIndex(PROTOCOL_VALUES[protocol])];
    }

    private static double treeFactor(int a, double[] theta) {
        return a == Algorithm.TREE.ordinal() ? theta[TREE_FACTOR] : 1.0;
    }

    public double alphaUs(Algorithm a, Protocol p, double[] theta) {
        return link[a.ordinal()] * theta[p.ordinal()] + net[a.ordinal()] * theta[NET_LATENCY];
    }

    /**
     * What θ alone decides of each candidate (index algorithm × protocols + protocol): its latency α and the divisor
     * of its bandwidth term, η_p·τ_a·β in bytes per µs. A fit evaluates every size at each θ it tries, so these are
     * worked out once per θ, not once per size; every time below is α + c_a·M/divisor, the same operations in the
     * same order wherever it is computed.
     */
    private final class Terms implements Envelope {
        private final double[] alpha = new double[ALGORITHMS.length * PROTOCOLS];
        private final double[] divisor = new double[ALGORITHMS.length * PROTOCOLS];

        Terms(double[] theta) {
            for (int a = firstAlgorithm; a < ALGORITHMS.length; a++) {
                for (int p = 0; p < PROTOCOLS; p++) {
                    alpha[a * PROTOCOLS + p] = link[a] * theta[p] + net[a] * theta[NET_LATENCY];
                    divisor[a * PROTOCOLS + p] = efficiency(p, theta) * treeFactor(a, theta) * theta[BETA]
                            * BYTES_PER_US_PER_GBPS;
                }
            }
        }

        /** µs of candidate c's bandwidth term at this size. */
        double bandwidthUs(int c, double bytes) {
            return bus[c / PROTOCOLS] * bytes / divisor[c];
        }

        @Override
        public double time(int c, double bytes) {
            return alpha[c] + bandwidthUs(c, bytes);
        }

        /** The fastest candidate; NCCL's order (Tree before Ring, LL before LL128 before Simple) breaks ties. */
        @Override
        public int chosen(double bytes) {
            int best = RING_INDEX * PROTOCOLS;
            double t = Double.POSITIVE_INFINITY;
            for (int a = firstAlgorithm; a < ALGORITHMS.length; a++) {
                for (int p = 0; p < PROTOCOLS; p++) {
                    if (p == LL128_INDEX && !ll128) {
                        continue;
                    }
                    double tp = time(a * PROTOCOLS + p, bytes);
                    if (tp < t) {
                        t = tp;
                        best = a * PROTOCOLS + p;
                    }
                }
            }
            return best;
        }

        /** Candidate c's gradient at this size, over all of g (the envelope is piecewise linear in ℓ). */
        @Override
        public void gradient(int c, double bytes, double[] theta, double[] g) {
            int a = c / PROTOCOLS;
            int p = c % PROTOCOLS;
            Arrays.fill(g, 0);
            g[p] = link[a];
            g[NET_LATENCY] = net[a];
            double bw = bandwidthUs(c, bytes);
            g[BETA] = -bw / theta[BETA];
            if (p != SIMPLE) {
                int e = ProtocolEnvelopeModel.efficiencyIndex(PROTOCOL_VALUES[p]);
                g[e] = -bw / theta[e];
            }
            if (a == Algorithm.TREE.ordinal()) {
                g[TREE_FACTOR] = -bw / theta[TREE_FACTOR];
            }
        }
    }

    /**
     * The bus bandwidth at which the candidate that carries this size moves each further byte, in the
     * collective's bus-bandwidth terms (busbw as nccl-tests prints it): f·η_p·τ_a·β/c_a.
     */
    public double carrierBusBwGBps(double bytes, double[] theta) {
        int c = new Terms(theta).chosen(bytes);
        int a = c / PROTOCOLS;
        return collective.busFactor(config.ranks()) * efficiency(c % PROTOCOLS, theta) * treeFactor(a, theta)
                * theta[BETA] / bus[a];
    }

    /** The fastest candidate; NCCL's order (Tree before Ring, LL before LL128 before Simple) breaks ties. */
    public Choice chosen(double bytes, double[] theta) {
        int c = new Terms(theta).chosen(bytes);
        return new Choice(ALGORITHMS[c / PROTOCOLS], PROTOCOL_VALUES[c % PROTOCOLS]);
    }

    /** The time of an algorithm on its fastest protocol; empty where the algorithm is not a candidate here. */
    public java.util.OptionalDouble fastestUs(Algorithm a, double bytes, double[] theta) {
        if (a.ordinal() < firstAlgorithm) {
            return java.util.OptionalDouble.empty();
        }
        Terms terms = new Terms(theta);
        double t = Double.POSITIVE_INFINITY;
        for (int p = 0; p < PROTOCOLS; p++) {
            if (p != LL128_INDEX || ll128) {
                t = Math.min(t, terms.time(a.ordinal() * PROTOCOLS + p, bytes));
            }
        }
        return java.util.OptionalDouble.of(t);
    }

    /**
     * The sizes from 1 B to 1 TiB where Ring and Tree, each on its fastest protocol, change places (as NCCL's own
     * tables' crossover is found); empty where Tree is no candidate.
     */
    public List<Double> treeRingCrossovers(double[] theta) {
        if (!treeApplies()) {
            return List.of();
        }
        return RingTree.scannedCrossovers(b -> fastestUs(Algorithm.RING, b, theta).getAsDouble(),
                b -> fastestUs(Algorithm.TREE, b, theta).getAsDouble());
    }

    @Override
    public Envelope envelopeAt(double[] theta) {
        return new Terms(theta);
    }

    /** The same calibrated system at another configuration (every parameter carries over). */
    @Override
    public AlgorithmEnvelopeModel at(Scale scale) {
        return new AlgorithmEnvelopeModel(collective, scale.domainsFrom(config), hops, ringOnly);
    }

    @Override
    public <R> R accept(CostModelVisitor<R> visitor) {
        return visitor.algorithmEnvelope(this);
    }
}
