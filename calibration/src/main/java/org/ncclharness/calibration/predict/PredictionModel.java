package org.ncclharness.calibration.predict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.SizeText;
import org.ncclharness.calibration.model.AlgorithmEnvelopeModel;
import org.ncclharness.calibration.model.CostModel;
import org.ncclharness.calibration.model.CostModelVisitor;
import org.ncclharness.calibration.model.NcclTunerModel;
import org.ncclharness.calibration.model.ProtocolEnvelopeModel;
import org.ncclharness.calibration.model.Scale;
import org.ncclharness.calibration.model.ScaleRefused;
import org.ncclharness.calibration.model.SingleTierModel;
import org.ncclharness.calibration.model.TwoTierCostModel;
import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * A model ready to predict: the cost model and θ, where θ came from, and the configuration and sizes it was
 * calibrated over (null where there was no calibration, as for the raw ring formula).
 *
 * @param name            the model's name ({@code B}, {@code envelope}, {@code ring formula})
 * @param model           the cost model at the configuration predicted
 * @param theta           its parameters
 * @param source          where θ came from, one line ({@code calibration cal.json, dataset h200_...})
 * @param calibratedRanks N the parameters were fitted at, null when not calibrated
 * @param calibratedNodes nodes the parameters were fitted at, null when unknown
 * @param minBytes        smallest calibrated size, null when not calibrated
 * @param maxBytes        largest calibrated size, null when not calibrated
 * @param calibratedDomains the domains x GPUs of every run a multi-domain model was fitted on (a joint fit has
 *                        several), empty otherwise
 * @param notes           what a user must know (out-of-range configurations, borrowed parameters)
 * @param networkLineRateGBps the calibrated run's network line rate per domain (NICs x rate), null where not known
 *                        or not across domains ({@link NetworkCeiling})
 */
public record PredictionModel(String name, CostModel model, double[] theta, String source, Integer calibratedRanks,
                              Integer calibratedNodes, Double minBytes, Double maxBytes,
                              List<TwoTierConfig> calibratedDomains, List<String> notes, Double networkLineRateGBps) {

    /** A model with no network line rate known. */
    public PredictionModel(String name, CostModel model, double[] theta, String source, Integer calibratedRanks,
                           Integer calibratedNodes, Double minBytes, Double maxBytes,
                           List<TwoTierConfig> calibratedDomains, List<String> notes) {
        this(name, model, theta, source, calibratedRanks, calibratedNodes, minBytes, maxBytes, calibratedDomains, notes,
                null);
    }

    public PredictionModel {
        theta = theta.clone();
        calibratedDomains = List.copyOf(calibratedDomains);
        notes = List.copyOf(notes);
    }

    @Override
    public double[] theta() {
        return theta.clone();
    }

    /**
     * This model where no configuration was asked for: a joint fit has no configuration of its own, so it is
     * predicted at its largest run (the one calibrate's row shows, and the scale it is used for), and the notes say
     * so.
     */
    public PredictionModel asStored() {
        if (calibratedDomains.size() < 2 || model.domains().isEmpty()) {
            return this;
        }
        TwoTierConfig largest = calibratedDomains.stream().max(Comparator.comparingInt(TwoTierConfig::ranks))
                .orElseThrow();
        List<String> n = new ArrayList<>(notes);
        n.add(0, "a joint fit of " + String.join(", ", calibratedDomains.stream().map(TwoTierConfig::label).toList())
                + ": predicted at " + largest.label() + ", its largest run (as calibrate's row shows it); "
                + Advice.name(Setting.GPU_COUNT) + " and " + Advice.name(Setting.HOST_COUNT) + " choose another");
        return new PredictionModel(name, model.at(Scale.of(largest)), theta, source, calibratedRanks, calibratedNodes,
                minBytes, maxBytes, calibratedDomains, n, networkLineRateGBps);
    }

    public double timeUs(double bytes) {
        return model.timeUs(bytes, theta);
    }

    /** N of the configuration predicted. */
    public int ranks() {
        return model.ranks();
    }

    public Collective collective() {
        return model.collective();
    }

    /**
     * The same parameters at another configuration: per-hop, per-step and per-channel parameters carry over, and
     * a configuration outside the calibrated one is said in the notes.
     *
     * @param nodes the node count, null to keep the calibrated one
     */
    public PredictionModel at(int ranks, Integer nodes) {
        if (ranks < 2) {
            throw new IllegalArgumentException(Advice.name(Setting.GPU_COUNT) + " must be at least 2, got " + ranks);
        }
        List<String> n = new ArrayList<>(notes);
        Rescaled moved;
        try {
            moved = model.accept(new Mover(Scale.gpus(ranks, nodes), nodes, n));
        } catch (ScaleRefused e) {
            throw new IllegalArgumentException(switch (e.reason()) {
                case NOT_WHOLE_DOMAINS -> e.getMessage() + " (the calibrated domain size)" + (nodes != null
                        && nodes > 0 ? "; for " + nodes + " domains pass " + Advice.with(Setting.GPU_COUNT,
                        nodes * e.size()) : "");
                case UNEVEN_OVER_HOSTS -> e.getMessage();
            }, e);
        }
        if (calibratedRanks != null && ranks != calibratedRanks) {
            // more GPUs than one host of the calibration, and no --nodes: still that one host's fabric
            boolean oneHostGrown = nodes == null && Integer.valueOf(1).equals(calibratedNodes) && ranks > calibratedRanks;
            n.add(String.format(Locale.ROOT, "N = %d lies outside what was calibrated (N = %d): per-hop and per-step"
                    + " parameters carried over%s", ranks, calibratedRanks, oneHostGrown ? String.format(Locale.ROOT,
                    "; as if all %d GPUs shared the fabric of the one host of %d it measured: for several hosts,"
                    + " predict from a calibration of a multi-node run, with %s", ranks, calibratedRanks,
                    Advice.name(Setting.HOST_COUNT)) : ""));
        }
        Integer d = nodes != null ? nodes : calibratedNodes;
        if (nodes != null && calibratedNodes != null && !nodes.equals(calibratedNodes) && model.domains().isEmpty()) {
            n.add(String.format(Locale.ROOT, "%d node%s lie%s outside what was calibrated (%d node%s)%s", nodes,
                    nodes == 1 ? "" : "s", nodes == 1 ? "s" : "", calibratedNodes, calibratedNodes == 1 ? "" : "s",
                    model.oneTier() ? ": this single-tier model has no term for another tier" : ""));
        }
        return new PredictionModel(name, moved.model(), moved.theta(), source, calibratedRanks,
                d == null ? calibratedNodes : d, minBytes, maxBytes, calibratedDomains, n, networkLineRateGBps);
    }

    /** A model moved to another scale, with the θ it predicts with there. */
    private record Rescaled(CostModel model, double[] theta) {
    }

    /**
     * Moves each kind of model, with what each kind must say on the way: a model across domains where the domains
     * lie outside the calibrated ones, and where the network's line rate holds its bandwidth ({@link NetworkCeiling}).
     */
    private final class Mover implements CostModelVisitor<Rescaled> {

        private final Scale scale;
        private final Integer nodes;
        private final List<String> said;

        Mover(Scale scale, Integer nodes, List<String> said) {
            this.scale = scale;
            this.nodes = nodes;
            this.said = said;
        }

        @Override
        public Rescaled singleTier(SingleTierModel m) {
            return new Rescaled(m.at(scale), theta);
        }

        @Override
        public Rescaled protocolEnvelope(ProtocolEnvelopeModel m) {
            double[] held = held(NetworkCeiling.apply(m, calibratedNodes, nodes, theta, networkLineRateGBps), said);
            return new Rescaled(m.at(scale), held);
        }

        @Override
        public Rescaled twoTier(TwoTierCostModel m) {
            TwoTierCostModel moved = m.at(scale);
            outsideCalibrated(m.config(), moved.config(), said);
            aboveLineRate(moved, moved.config()).ifPresent(said::add);
            return new Rescaled(moved, theta);
        }

        @Override
        public Rescaled algorithmEnvelope(AlgorithmEnvelopeModel m) {
            AlgorithmEnvelopeModel moved = m.at(scale);
            outsideCalibrated(m.config(), moved.config(), said);
            if (m.multiDomain() && !moved.multiDomain()) {
                said.add("one domain from a fit across domains: beta is the ring's bandwidth limited by the slower"
                        + " tier, not NVLink's, so the sizes bandwidth carries are predicted slower than such a run"
                        + " goes (calibrate a one-domain run for them)");
            } else if (!m.multiDomain() && moved.multiDomain()) {
                said.add("several domains from a fit on one domain: beta is NVLink's ring bandwidth and the"
                        + " network's terms (l_net, tau) were never fitted, so this is a floor, not an estimate"
                        + " (calibrate a run across domains)");
            }
            return new Rescaled(moved, held(NetworkCeiling.apply(m, calibratedDomains, moved.config(), theta,
                    networkLineRateGBps), said));
        }

        @Override
        public Rescaled ncclTuner(NcclTunerModel m) {
            return new Rescaled(m.at(scale), theta);
        }
    }

    /**
     * A two-tier form moved to more domains than it was fitted on, whose bandwidth far out stands above the
     * network's line rate: the calibrated runs went above it too (a tree or NVLS/SHARP, flag R), and the ring form
     * carries that to any scale, where NCCL's rings cross the network (nccl-tests#294's 2-node H100 fit predicted
     * 462 GB/s at 8 nodes over 8 x 400G). Said, as an upper bound; not held, since the form has no term for it.
     */
    private java.util.Optional<String> aboveLineRate(CostModel moved, TwoTierConfig c) {
        int fitted = calibratedDomains.stream().mapToInt(TwoTierConfig::domains).max().orElse(c.domains());
        if (networkLineRateGBps == null || c.domains() <= fitted) {
            return java.util.Optional.empty();
        }
        double far = 1e15;
        double busBw = collective().busBwGBps(far, moved.timeUs(far, theta), c.ranks());
        return busBw <= networkLineRateGBps ? java.util.Optional.empty() : java.util.Optional.of(String.format(
                Locale.ROOT, "at %d domains the model's busbw far out, %.1f GB/s, stands above the network's line"
                + " rate, %.1f GB/s per domain: the calibrated runs went above it too (a tree or NVLS/SHARP), which"
                + " this ring form carries to any scale; an upper bound where NCCL's rings cross the network (the"
                + " algorithm envelope holds its bandwidth to the line rate)", c.domains(), busBw,
                networkLineRateGBps));
    }

    /** θ as {@link NetworkCeiling} moves it, its note added; this model's θ where it does not apply. */
    private double[] held(Optional<NetworkCeiling.Moved> moved, List<String> notes) {
        moved.ifPresent(m -> notes.add(m.note()));
        return moved.map(NetworkCeiling.Moved::theta).orElse(theta);
    }

    /**
     * A model across domains keeps its domain size; {@code --nodes} counts NVLink domains. Domains other than the
     * calibrated ones (the runs fitted, else the model's own) are said in {@code notes}.
     */
    private void outsideCalibrated(TwoTierConfig own, TwoTierConfig at, List<String> notes) {
        List<TwoTierConfig> known = calibratedDomains.isEmpty() ? List.of(own) : calibratedDomains;
        if (!known.contains(at)) {
            int d = at.domains();
            notes.add(String.format(Locale.ROOT, "%d domain%s of %d GPUs lie%s outside what was calibrated (%s):"
                    + " per-tier parameters carried over", d, d == 1 ? "" : "s", at.gpusPerDomain(), d == 1 ? "s" : "",
                    String.join(", ", known.stream().map(TwoTierConfig::label).toList())));
        }
    }

    /** Comment-worthy notes for these sizes: the calibrated notes plus sizes outside the calibrated range. */
    public List<String> notesFor(double[] sizes) {
        List<String> out = new ArrayList<>(notes);
        if (minBytes == null || maxBytes == null) {
            return out;
        }
        int below = 0;
        int above = 0;
        for (double s : sizes) {
            below += s < minBytes ? 1 : 0;
            above += s > maxBytes ? 1 : 0;
        }
        if (below > 0) {
            out.add(String.format(Locale.ROOT, "%d size%s below the calibrated range (%s to %s): extrapolated", below,
                    below == 1 ? "" : "s", SizeText.approx(minBytes), SizeText.approx(maxBytes)));
        }
        if (above > 0) {
            out.add(String.format(Locale.ROOT, "%d size%s above the calibrated range (%s to %s): extrapolated", above,
                    above == 1 ? "" : "s", SizeText.approx(minBytes), SizeText.approx(maxBytes)));
        }
        return out;
    }
}
