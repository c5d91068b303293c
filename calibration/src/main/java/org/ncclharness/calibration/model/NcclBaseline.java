package org.ncclharness.calibration.model;

import org.ncclharness.calibration.nccl.Algorithm;
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
 * Sets up {@link NcclTunerModel} for a run from what its metadata states, and {@code nccl/graph-defaults.json} for what
 * it does not (every default is named in {@link #notes}). An estimate of NCCL's own prediction, never fitted.
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
        notes.add(String.format(Locale.ROOT, "graph not stated: %d channels x %.4g GB/s (%s)", ring.channels(),
                ring.perChannelGBps(), ring.source()));
        double inter = g.netPerChannelGBps();
        if (nodes > 1) {
            if (nicsPerHost != null && nicGbps != null) {
                inter = nicsPerHost * nicGbps / 8 / ring.channels();
                notes.add(String.format(Locale.ROOT, "network per channel: %d NICs x %.4g Gb/s / 8 / %d channels",
                        nicsPerHost, nicGbps, ring.channels()));
            } else {
                notes.add(String.format(Locale.ROOT, "network per channel %.4g GB/s (%s)", inter, g.netSource()));
            }
            // Across nodes a ring channel runs at the slower of its two legs.
            inter = Math.min(inter, ring.perChannelGBps());
        }
        return new NcclBaseline(Optional.of(new NcclTunerModel(c, hw.ranks(), nodes, sm.get(), intra, ring.channels(),
                nodes > 1 ? inter : ring.perChannelGBps(), inter, sel.tuning().version())), notes);
    }

    private static NcclBaseline none(String why) {
        return new NcclBaseline(Optional.empty(), List.of(why));
    }
}
