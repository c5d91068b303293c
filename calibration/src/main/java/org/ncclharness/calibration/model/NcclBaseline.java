package org.ncclharness.calibration.model;

import org.ncclharness.calibration.nccl.Algorithm;
import org.ncclharness.calibration.nccl.ChannelCounts;
import org.ncclharness.calibration.nccl.GpuClass;
import org.ncclharness.calibration.nccl.GraphDefaults;
import org.ncclharness.calibration.nccl.NcclTuning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Hardware;

/**
 * Sets up {@link NcclTunerModel} for a run from what its metadata and its log state (the ring channels NCCL printed
 * for a communicator of the run's size), and {@code nccl/graph-defaults.json} for what they do not (every default is
 * named in {@link #notes}). An estimate of NCCL's own prediction, never fitted.
 *
 * @param model the estimate, empty when NCCL's tables do not cover the run
 * @param notes what was assumed, or why there is no estimate
 */
public record NcclBaseline(Optional<NcclTunerModel> model, List<String> notes) {

    public NcclBaseline {
        notes = List.copyOf(notes);
    }

    /**
     * @param hw          the run's configuration
     * @param ncclVersion the version as stated, null when unknown
     * @param nicsPerHost NICs per host when stated, else null
     * @param nicGbps     one NIC's speed in Gb/s when stated, else null
     */
    public static NcclBaseline of(Collective c, Hardware hw, String ncclVersion, Integer nicsPerHost, Double nicGbps) {
        return of(c, hw, ncclVersion, nicsPerHost, nicGbps, List.of());
    }

    /**
     * As above, with the channel counts the run's log printed: the ring channels of the communicator of the run's N
     * where the log has them, else the defaults, with a note where the log's counts are of another size (a
     * prediction at another scale: NCCL picks channels per communicator).
     *
     * @param logged every channel count the log printed ({@code LogFacts#channels}), empty where it printed none
     */
    public static NcclBaseline of(Collective c, Hardware hw, String ncclVersion, Integer nicsPerHost, Double nicGbps,
                                  List<ChannelCounts> logged) {
        List<String> notes = new ArrayList<>();
        if (!Algorithm.tuned(c)) {
            return none("NCCL's tuning tables do not cover " + c.testName());
        }
        if (hw.ranks() == null || hw.ranks() < 2) {
            return none("N is unknown or 1");
        }
        GraphDefaults g = GraphDefaults.bundled();
        Optional<Integer> sm = g.sm(hw.gpuModel());
        if (sm.isEmpty()) {
            return none(hw.gpuModel() == null ? "GPU not named: no compute capability for NCCL's tables"
                    : hw.gpuModel() + " is not an NVIDIA GPU NCCL's tables cover (RCCL has its own tuner)");
        }
        int nodes = hw.hosts() == null ? 1 : hw.hosts();
        if (hw.ranks() % nodes != 0) {
            return none(hw.ranks() + " GPUs do not split evenly over " + nodes + " hosts");
        }
        String intra = hw.intra() != null && hw.intra().startsWith("NVLink") ? "NVLINK" : "PCI";
        if (hw.ranks() / nodes == 1) {
            intra = "PCI";
        }
        GpuClass cls = GpuClass.ofSm(sm.get());
        GraphDefaults.Ring ring = g.ring(cls, intra).orElseThrow(() -> new IllegalStateException(
                "graph-defaults.json has no ring entry for " + cls.label()));
        NcclTuning.Selection sel = NcclTuning.forVersion(ncclVersion);
        if (sel.note() != null) {
            notes.add(sel.note());
        }
        Optional<ChannelCounts> stated = ChannelCounts.forRanks(logged, hw.ranks());
        int channels = stated.map(ChannelCounts::coll).orElse(ring.channels());
        if (stated.isPresent()) {
            notes.add(String.format(Locale.ROOT, "channels from the log: %d x %.4g GB/s (per channel: %s)", channels,
                    ring.perChannelGBps(), ring.source()));
        } else {
            notes.add(String.format(Locale.ROOT, "graph not stated: %d channels x %.4g GB/s (%s)", channels,
                    ring.perChannelGBps(), ring.source()) + otherSizes(logged, hw.ranks()));
        }
        double inter = g.netPerChannelGBps();
        if (nodes > 1) {
            if (nicsPerHost != null && nicGbps != null) {
                inter = nicsPerHost * nicGbps / 8 / channels;
                notes.add(String.format(Locale.ROOT, "network per channel: %d NICs x %.4g Gb/s / 8 / %d channels",
                        nicsPerHost, nicGbps, channels));
            } else {
                notes.add(String.format(Locale.ROOT, "network per channel %.4g GB/s (%s)", inter, g.netSource()));
            }
            // Across nodes a ring channel runs at the slower of its two legs.
            inter = Math.min(inter, ring.perChannelGBps());
        }
        return new NcclBaseline(Optional.of(new NcclTunerModel(c, hw.ranks(), nodes, sm.get(), intra, channels,
                nodes > 1 ? inter : ring.perChannelGBps(), inter, sel.tuning().version())), notes);
    }

    /**
     * Why the log's counts were not used: they are of other sizes than {@code ranks}, or communicators of that size
     * printed different ones.
     */
    private static String otherSizes(List<ChannelCounts> logged, int ranks) {
        List<String> sizes = logged.stream().map(ch -> ch.coll() + (ch.ranks() == null ? " of a communicator of no"
                + " stated size" : " at N=" + ch.ranks())).distinct().toList();
        if (sizes.isEmpty()) {
            return "";
        }
        boolean sameSize = logged.stream().anyMatch(ch -> ch.ranks() != null && ch.ranks() == ranks);
        return "; the log's channels (" + String.join(", ", sizes) + ")"
                + (sameSize ? " differ between communicators of N=" : " are not those of N=") + ranks;
    }

    private static NcclBaseline none(String why) {
        return new NcclBaseline(Optional.empty(), List.of(why));
    }
}
