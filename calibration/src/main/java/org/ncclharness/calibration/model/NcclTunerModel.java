package org.ncclharness.calibration.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.nccl.GpuClass;
import org.ncclharness.calibration.nccl.NcclTuning;
import org.ncclharness.calibration.nccl.Protocol;

/**
 * What NCCL's own tuner would predict (NCCL src/graph/tuning.cc, enqueue.cc): per (algorithm, protocol) a latency from
 * the baseLat/hwLat tables and a bandwidth from the channel count, per-channel bandwidth and the protocol caps, and
 * time = lat + nBytes/(1000·bw); the tuner takes the fastest. Ring for every collective the tables cover, Tree for
 * AllReduce; NVLS, CollNet and PAT are not estimated (they need graph facts no dataset states). θ is empty: this is an
 * estimate from NCCL's constants, never fitted.
 *
 * @param collective  the collective
 * @param ranks       N
 * @param nodes       nNodes
 * @param sm          the (minimum) compute capability, e.g. 90
 * @param intraLink   {@code NVLINK} or {@code PCI}: the hwLat class inside a node
 * @param channels    ring (and tree) channel count C
 * @param bwIntraGBps per-channel bandwidth inside a node
 * @param bwInterGBps per-channel bandwidth across nodes (used when nodes &gt; 1)
 * @param version     the NCCL version whose constants are used ({@code 2.30.7})
 */
public record NcclTunerModel(Collective collective, int ranks, int nodes, int sm, String intraLink, int channels,
                             double bwIntraGBps, double bwInterGBps, String version) implements CostModel {

    public static final String FORM = "nccl-tuner";
    private static final String NET = "NET";

    public NcclTunerModel {
        if (ranks < 2 || nodes < 1 || ranks % nodes != 0) {
            throw new IllegalArgumentException("need N >= 2 split evenly over nodes, got " + ranks + " over " + nodes);
        }
        if (channels < 1) {
            throw new IllegalArgumentException("channels must be at least 1, got " + channels);
        }
    }

    /** One (algorithm, protocol) candidate: NCCL's latency and algorithm bandwidth for it. */
    public record Candidate(Algorithm algorithm, Protocol protocol, double latencyUs, double algBwGBps) {
        public double timeUs(double bytes, double correction) {
            return latencyUs + bytes / (1000 * algBwGBps * correction);
        }
    }

    /** The tuner's choice at one size. */
    public record Choice(Algorithm algorithm, Protocol protocol, double timeUs, double latencyUs) {
    }

    private NcclTuning tuning() {
        return NcclTuning.forVersion(version).tuning();
    }

    @Override
    public String form() {
        return FORM;
    }

    @Override
    public NcclTunerConfiguration configuration() {
        return new NcclTunerConfiguration(collective, ranks, nodes, sm, intraLink, channels, bwIntraGBps, bwInterGBps,
                version);
    }



    @Override
    public List<String> parameterNames() {
        return List.of();
    }

    public GpuClass gpuClass() {
        return GpuClass.ofSm(sm);
    }

    private int column() {
        return Math.min(nodes - 1, 2);
    }

    /** Every candidate NCCL's tables give this collective, in NCCL's order. */
    public List<Candidate> candidates() {
        NcclTuning t = tuning();
        List<Candidate> out = new ArrayList<>();
        for (Algorithm a : Algorithm.values()) {
            if (a == Algorithm.TREE && collective != Collective.ALL_REDUCE) {
                continue;
            }
            for (Protocol p : Protocol.values()) {
                double bw = a == Algorithm.RING ? ringAlgBw(t, p) : treeAlgBw(t, p);
                if (bw > 0) {
                    out.add(new Candidate(a, p, a == Algorithm.RING ? ringLatency(t, p) : treeLatency(t, p), bw));
                }
            }
        }
        return out;
    }

    private double perChannel() {
        return nodes <= 2 ? bwIntraGBps : bwInterGBps;
    }

    private double llMaxBw(NcclTuning t) {
        return nodes == 1 ? t.llMaxBwGBps().singleNode().get(gpuClass().label())
                : t.llMaxBwGBps().multiNodeIntelOrOther()[nodes == 2 ? 0 : 1];
    }

    private double ringAlgBw(NcclTuning t, Protocol p) {
        double busBw = channels * perChannel();
        int ppn = ranks / nodes;
        busBw = switch (p) {
            case LL -> Math.min(llMaxBw(t), t.ringLLBusBwFactor() * busBw);
            case LL128 -> Math.min((ppn < 2 ? t.ringLL128BusBwFactorOneRankPerNode() : t.ringLL128BusBwFactor())
                    * busBw, channels * t.perChMaxRingLL128BwGBps().get(gpuClass().label())[column()]);
            case SIMPLE -> busBw;
        };
        return busBw * ranks / tunerSteps();
    }

    /**
     * NCCL's nsteps (tuning.cc): N for Broadcast and Reduce, where {@link RingSteps} counts a pipelined chain's N−1
     * hops (the tuner's busbw-to-algbw ratio N/nsteps is then 1, nccl-tests' bus factor for them); the ring's own
     * steps for the collectives whose count NCCL shares (AllReduce, AllGather, ReduceScatter) and for those its tables
     * do not cover.
     */
    private int tunerSteps() {
        return collective == Collective.BROADCAST || collective == Collective.REDUCE ? ranks
                : RingSteps.of(collective, ranks);
    }

    private double treeAlgBw(NcclTuning t, Protocol p) {
        String cls = gpuClass().label();
        double busBw = channels * perChannel();
        busBw = Math.min(busBw * t.treeBusBwFactor(), channels * t.perChMaxTreeBwGBps().get(cls)[column()]);
        if (p == Protocol.LL) {
            busBw = Math.min(busBw / t.treeLLBusBwDivisor(), llMaxBw(t));
        } else if (p == Protocol.LL128) {
            busBw = Math.min(busBw * (nodes == 1 ? t.treeLL128BusBwFactorOneNode() : t.treeLL128BusBwFactorMultiNode()),
                    channels * t.perChMaxTreeLL128BwGBps().get(cls)[column()]);
        }
        return busBw * t.treeAlgBwFactor();
    }

    private double ringLatency(NcclTuning t, Protocol p) {
        int steps = tunerSteps();
        int i = p.ordinal();
        double lat = t.baseLatUs().get(Algorithm.RING.label())[i];
        double intra = t.hwLatUs().get(intraLink).get(Algorithm.RING.label())[i];
        if (nodes == 1) {
            return lat + steps * intra;
        }
        int ppn = ranks / nodes;
        double inter = t.hwLatUs().get(NET).get((ppn == 1 ? Algorithm.TREE : Algorithm.RING).label())[i];
        int nInter = collective == Collective.ALL_REDUCE ? 2 * (nodes - 1) : nodes - 1;
        double overhead = t.netOverheadUs().get("intelOrOther") * (p == Protocol.SIMPLE ? t.netOverheadSimpleFactor() : 1);
        return lat + (steps - nInter) * Math.max(intra, overhead) + nInter * inter;
    }

    private double treeLatency(NcclTuning t, Protocol p) {
        int i = p.ordinal();
        double intra = t.hwLatUs().get(intraLink).get(Algorithm.TREE.label())[i];
        double inter = t.hwLatUs().get(NET).get(Algorithm.TREE.label())[i];
        int log2Nodes = 31 - Integer.numberOfLeadingZeros(nodes);
        return t.baseLatUs().get(Algorithm.TREE.label())[i]
                + 2 * ((ranks / nodes - 1) * intra + log2Nodes * inter);
    }

    /** The candidate NCCL would choose at this size and its predicted time (NCCL src/enqueue.cc, topoGetAlgoInfo). */
    public Choice choose(double bytes) {
        NcclTuning t = tuning();
        Choice best = null;
        for (Candidate c : candidates()) {
            double time = time(t, c, bytes);
            if (best == null || time < best.timeUs()) {
                best = new Choice(c.algorithm(), c.protocol(), time, latency(c, bytes));
            }
        }
        return best;
    }

    /** The predicted time of one candidate at this size, with NCCL's per-call corrections. */
    public double time(Candidate c, double bytes) {
        return time(tuning(), c, bytes);
    }

    private double time(NcclTuning t, Candidate c, double bytes) {
        double correction = c.algorithm() == Algorithm.TREE ? t.treeCorrection(c.protocol().label(), bytes) : 1.0;
        return latency(c, bytes) + bytes / (1000 * c.algBwGBps() * correction);
    }

    /** Ring/Simple AllReduce across nodes pays the "plateau" latency factor once a channel's share is ≥ 64 B. */
    private double latency(Candidate c, double bytes) {
        boolean plateau = c.algorithm() == Algorithm.RING && c.protocol() == Protocol.SIMPLE
                && collective == Collective.ALL_REDUCE && nodes > 1 && bytes / ((double) channels * ranks) >= 64;
        if (!plateau) {
            return c.latencyUs();
        }
        Map<String, Double> f = tuning().ringSimpleMultiNodeLatencyFactor();
        return c.latencyUs() * (sm >= 80 ? f.get("sm80AndNewer") : f.get("older"));
    }

    /** The fastest candidate of one algorithm at this size, empty when the tables offer none. */
    public Optional<Candidate> fastest(Algorithm a, double bytes) {
        return candidates().stream().filter(c -> c.algorithm() == a)
                .min((x, y) -> Double.compare(time(x, bytes), time(y, bytes)));
    }

    /**
     * Where NCCL's best Tree and best Ring change places, scanning powers of two from 1 B to 1 TiB (the tree
     * correction factors make the curves irregular, so there is no closed form): the first crossing, empty when
     * there is none or the collective has no Tree.
     */
    public OptionalDouble treeRingCrossoverBytes() {
        List<Double> x = RingTree.scannedCrossovers(b -> fastest(Algorithm.RING, b).map(c -> time(c, b))
                .orElse(Double.NaN), b -> fastest(Algorithm.TREE, b).map(c -> time(c, b)).orElse(Double.NaN));
        return x.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(x.get(0));
    }

    @Override
    public double timeUs(double bytes, double[] theta) {
        return choose(bytes).timeUs();
    }

    @Override
    public double[] gradient(double bytes, double[] theta) {
        return new double[0];
    }

    /** NCCL's tables at N over the hosts the scale gives (its own where it gives none). */
    @Override
    public NcclTunerModel at(Scale scale) {
        return new NcclTunerModel(collective, scale.gpus(), scale.hostsFrom(nodes), sm, intraLink, channels,
                bwIntraGBps, bwInterGBps, version);
    }

    @Override
    public <R> R accept(CostModelVisitor<R> visitor) {
        return visitor.ncclTuner(this);
    }
}
