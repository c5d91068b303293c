package org.ncclharness.calibration.check;

import org.ncclharness.calibration.resolve.Comparability;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.accuracy.Clusters;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.hardware.GpuFabrics;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;

/**
 * What a run should reach when no baseline is given: the bundled real run of the same collective, GPU model and
 * bottleneck fabric nearest in configuration (forced algorithm, NICs per host, one host or several, GPU count,
 * data type; among equals the fastest, what the hardware is known to reach), never the run itself (same id, or
 * every row of the run among its rows: a log cut short or trimmed is still that run). At the run's scale it is
 * compared as measured; at another scale its calibrated model (the lowest leave-one-out RMSPE, as {@code predict}
 * picks) is moved to the run's GPUs and hosts, and the reference is labelled as a prediction.
 */
public final class ExpectedCurves {

    /** Fewer common sizes than this make a measured peer a poor curve; its model is evaluated instead. */
    private static final int MIN_COMMON_SIZES = 3;

    /**
     * The outcome: a reference, or why there is none (one line for the report).
     *
     * @param peer            the bundled run the reference comes from, null without one
     * @param model           its model moved to the run's scale, null when the peer is compared as measured
     * @param fabricNotStated none because the run's bottleneck fabric is not known: a caller that resolved the run's
     *                        facts words what is missing from them (inside a host, between hosts, or both)
     */
    public record Outcome(Reference reference, String reason, Dataset peer, PredictionModel model,
                          boolean fabricNotStated) {

        static Outcome none(String reason) {
            return new Outcome(null, reason, null, null, false);
        }
    }

    private ExpectedCurves() {
    }

    /**
     * @param nicsPerHost the run's NICs per host where known: a peer with another count is a last resort
     * @param algo        the NCCL_ALGO the run forced, null for NCCL's choice: peers that forced another come last
     */
    public static Outcome forRun(Sweep run, String runId, Integer nicsPerHost, String algo, List<Dataset> bundled,
                                 HardwareFacts facts) {
        return forRun(run, runId, nicsPerHost, algo, bundled, id -> PredictionSources.dataset(id, null, facts));
    }

    /**
     * Where a peer's calibrated model comes from: its dataset id to the model {@code predict} picks for it
     * ({@link PredictionSources#dataset}). The tests that judge every bundled run, and degraded copies of each, pass
     * one that fits each peer once rather than once per judgement.
     */
    @FunctionalInterface
    public interface PeerModels {
        PredictionModel of(String datasetId);
    }

    /**
     * As {@link #forRun(Sweep, String, Integer, String, List, HardwareFacts)}, the peers' models from
     * {@code models}.
     */
    public static Outcome forRun(Sweep run, String runId, Integer nicsPerHost, String algo, List<Dataset> bundled,
                                 PeerModels models) {
        Comparability.Side me = Comparability.Side.of(run);
        String fabric = fabric(run.hardware(), statedHosts(run));
        String gpu = run.hardware() == null ? null : run.hardware().gpuModel();
        if (me.gpuFamily() == null && gpu != null && !gpu.isBlank()) {
            // named, but not a chip family any bundled run is of (an RTX 6000D): say so, not that it is unnamed
            return Outcome.none("no reference (another cluster's run): no bundled run is of the run's GPU (" + gpu + ")");
        }
        if (me.gpuFamily() == null) {
            return Outcome.none("no reference (another cluster's run): the run states no GPU model, so no bundled run"
                    + " of the same hardware can be found");
        }
        if (fabric == null) {
            return new Outcome(null, "no reference (another cluster's run): the run states no interconnect (pass "
                    + Advice.name(Setting.INTERCONNECT) + "; across hosts it names the network), so no bundled run"
                    + " of the same hardware can be found", null, null, true);
        }
        Integer ranks = run.ranks();
        Integer stated = statedHosts(run);
        if (stated == null) {
            return Outcome.none("no reference (another cluster's run): the run does not state its host count (pass "
                    + Advice.usage(Setting.HOST_COUNT) + ") to find bundled runs of the same shape");
        }
        int hosts = stated;
        List<Dataset> peers = bundled.stream()
                .filter(d -> !d.id().equals(runId) && !d.rows().containsAll(run.rows()))
                .filter(d -> d.collective() == run.collective() && d.hardware().ranks() != null)
                .filter(d -> me.gpuFamily().equals(Comparability.gpuFamily(d.hardware().gpuModel()).orElse(null)))
                .filter(d -> fabric.equals(fabric(d.hardware(), d.hardware().hosts())))
                // one host and several are different machines even where the bottleneck's name agrees
                .filter(d -> (hostsOf(d.hardware()) > 1) == (hosts > 1))
                .filter(d -> d.sweep().rows().stream().filter(r -> SizeBusBw.of(r) != null).count() >= MIN_COMMON_SIZES)
                .sorted(Comparator.<Dataset>comparingInt(d -> sameAlgo(d.metadata().algo(), algo) ? 0 : 1)
                        .thenComparingInt(d -> nicsPerHost != null && d.metadata().nicsPerHost() != null
                                && !nicsPerHost.equals(d.metadata().nicsPerHost()) ? 1 : 0)
                        .thenComparingInt(d -> hostsOf(d.hardware()) == hosts ? 0 : 1)
                        .thenComparingDouble(d -> ranks == null || d.hardware().ranks() == null ? 0
                                : Math.abs(Math.log((double) d.hardware().ranks() / ranks)))
                        .thenComparingInt(d -> Objects.equals(Comparability.Side.of(d.sweep()).type(), me.type()) ? 0 : 1)
                        // the same SKU before another of its family (an A100-SXM4-40GB run: the 40 GB p4d's, not
                        // the 80 GB p4de's)
                        .thenComparingInt(d -> sameModel(gpu, d.hardware().gpuModel()) ? 0 : 1)
                        // among equals, the fastest: what this hardware is known to reach
                        .thenComparingDouble(d -> -peakBusBw(d))
                        .thenComparing(Dataset::id))
                .toList();
        if (peers.isEmpty()) {
            // "besides this one" only where the run is itself bundled (the same id, or the same rows)
            boolean bundledItself = bundled.stream().anyMatch(d -> d.id().equals(runId) || d.rows().containsAll(
                    run.rows()));
            return Outcome.none("no reference (another cluster's run): no bundled " + run.collective().testName() + " run of "
                    + me.gpuFamily() + " over " + fabric + (bundledItself ? " (besides this one)" : ""));
        }
        String why = null;
        // the checked run's own cluster where it is itself bundled: a peer of that cluster is no other cluster's
        Optional<String> myCluster = bundled.stream().filter(d -> d.id().equals(runId) || d.rows().containsAll(
                run.rows())).map(d -> Clusters.bundled().of(d.id())).flatMap(Optional::stream).findFirst();
        for (Dataset d : peers) {
            ReferenceKind kind = myCluster.isPresent() && myCluster.equals(Clusters.bundled().of(d.id()))
                    ? ReferenceKind.SAME_CLUSTER : ReferenceKind.OTHER_CLUSTER;
            String label = "bundled dataset " + d.id() + " (" + Comparability.Side.of(d.sweep()).describe() + ", "
                    + fabric + ")";
            boolean sameScale = Objects.equals(d.hardware().ranks(), ranks) && hostsOf(d.hardware()) == hosts;
            if (sameScale) {
                Reference r = Reference.measured(label, kind, d.sweep());
                long common = run.rows().stream().filter(x -> r.busBwGBps().containsKey(x.sizeBytes())).count();
                if (common >= MIN_COMMON_SIZES) {
                    return new Outcome(r, null, d, null, false);
                }
            }
            if (ranks == null || ranks < 2) {
                why = "no reference (another cluster's run): the run's GPU count is not known (pass " + Advice.name(Setting.GPU_COUNT)
                        + ") to move " + d.id() + " to it";
                continue;
            }
            int peerPerHost = d.hardware().ranks() / Math.max(1, hostsOf(d.hardware()));
            if (hosts > 1 && ranks % hosts == 0 && peerPerHost != ranks / hosts) {
                // Across hosts each host's NICs carry its GPUs' traffic: a model moved to another count per host
                // (whatever its family) would keep one host's bandwidth for another (a 2x8 run's 469 GB/s expected
                // of 10 hosts of one GPU and one NIC each, which reach 49)
                // the nearest peer names it (the peers are in order, nearest first)
                why = why != null ? why : perHost(run, me, fabric, ranks / hosts, d, peerPerHost);
                continue;
            }
            try {
                PredictionModel m = models.of(d.id()).at(ranks, hosts);
                // A model is evidence only over the sizes it was fitted on
                Sweep inRange = run.withRows(run.rows().stream().filter(x -> m.minBytes() == null
                        || x.sizeBytes() >= m.minBytes() && x.sizeBytes() <= m.maxBytes()).toList());
                if (inRange.rows().size() < MIN_COMMON_SIZES) {
                    why = "no reference (another cluster's run): " + d.id() + " was measured at other sizes than this run";
                    continue;
                }
                Reference r = Reference.model(label, inRange, run.collective(), ranks, m::timeUs)
                        .as(kind, label)
                        .withNotes(List.of(String.format(Locale.ROOT, "reference (%s): %s's %s model, moved from %s to"
                                + " this run's %d GPUs on %d host%s", kind.noun(), d.id(), m.name(),
                                Comparability.Side.of(d.sweep()).describe(), ranks, hosts, hosts == 1 ? "" : "s")));
                return new Outcome(r, null, d, m, false);
            } catch (IllegalArgumentException | InputException e) {
                // the advice inside e (another --gpus) would describe another run, not this one
                why = hosts > 0 && ranks % hosts == 0 && peerPerHost != ranks / hosts
                        ? perHost(run, me, fabric, ranks / hosts, d, peerPerHost)
                        : "no reference (another cluster's run): " + d.id() + "'s model cannot be moved to this run (" + e.getMessage() + ")";
            }
        }
        return Outcome.none(why);
    }

    /** The same GPU name, but for the vendor word and case. */
    private static boolean sameModel(String a, String b) {
        return a != null && b != null && bare(a).equals(bare(b));
    }

    private static String bare(String name) {
        return name.toUpperCase(Locale.ROOT).replace("NVIDIA", "").replace("TESLA", "").strip();
    }

    private static String perHost(Sweep run, Comparability.Side me, String fabric, int perHost, Dataset nearest,
                                  int nearestPerHost) {
        return "no reference (another cluster's run): no bundled " + run.collective().testName() + " run of " + me.gpuFamily() + " over "
                + fabric + " at " + perHost + " GPU" + (perHost == 1 ? "" : "s") + " per host (the nearest, "
                + nearest.id() + ", has " + nearestPerHost + "; its model has no term for another count per host)";
    }

    /** NCCL reads NCCL_ALGO in any case: Ring, RING and ring force the same. */
    private static boolean sameAlgo(String a, String b) {
        return a == null ? b == null : a.equalsIgnoreCase(b);
    }

    private static double peakBusBw(Dataset d) {
        return d.rows().stream().map(SizeBusBw::of).filter(Objects::nonNull).mapToDouble(Double::doubleValue).max()
                .orElse(0);
    }

    /** Hosts as the table states them, else as its device lines name them; null when neither says. */
    static Integer statedHosts(Sweep run) {
        if (run.hardware() != null && run.hardware().hosts() != null) {
            return run.hardware().hosts();
        }
        long named = run.devices().stream().map(org.ncclharness.calibration.measure.Device::host)
                .filter(h -> h != null && !h.isBlank()).distinct().count();
        return named == 0 ? null : (int) named;
    }

    private static int hostsOf(Hardware hw) {
        return hw == null || hw.hosts() == null ? 1 : hw.hosts();
    }

    /**
     * The bottleneck fabric: across hosts the network, which must be stated (two runs over unknown networks are
     * not the same hardware); on one host the fabric inside it, from the GPU name where the run does not say.
     */
    static String fabric(Hardware hw, Integer hosts) {
        if (hw == null) {
            return null;
        }
        if (hosts != null && hosts > 1) {
            boolean oneDomain = hw.domains() != null && hw.domains() == 1;
            return oneDomain ? HealthCheck.bottleneck(hw) : hw.inter();
        }
        String b = HealthCheck.bottleneck(hw);
        return b != null ? b : GpuFabrics.bundled().intraFor(hw.gpuModel()).orElse(null);
    }
}
