package org.ncclharness.harness.options;

import java.nio.file.Path;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.predict.PredictionModel;
import org.ncclharness.calibration.predict.PredictionSources;
import org.ncclharness.calibration.model.TwoTierConfig;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where a prediction's parameters come from, as {@code predict} and {@code plot --predict} both take them: a
 * calibration report, a bundled dataset calibrated now, the bundled calibrations of one interconnect, or the raw
 * ring formula's B and L. The model name, N and node count are the commands' own options (plot's mean more than
 * a prediction), passed to {@link #resolve}.
 */
public final class PredictionSourceOptions {

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Source source;

    /** At most one of these says where the model comes from (--dataset alone is the fourth way). */
    static final class Source {
        @Option(names = "--calibration", paramLabel = "FILE",
                description = "a report written by calibrate --json (pick with --dataset, --model)")
        Path calibration;

        @Option(names = "--interconnect", paramLabel = "NAME",
                description = "predict: borrow l_link and beta_eff from the bundled calibrations of this interconnect"
                        + " (NVLink4, PCIe4, ...), needs --gpus; plot without --predict: the interconnect the files"
                        + " ran over")
        String interconnect;

        @Option(names = "--bandwidth", paramLabel = "BW", converter = BandwidthConverter.class,
                description = "B of the raw ring formula, e.g. 25GB/s; needs --step-latency and --gpus")
        Double bandwidthGBps;
    }

    @Option(names = "--dataset", paramLabel = "ID",
            description = "a bundled dataset: calibrated now, or the dataset to take from --calibration")
    String dataset;

    @Option(names = "--step-latency", paramLabel = "TIME", converter = LatencyConverter.class,
            description = "L of the raw ring formula, e.g. 10us")
    Double stepLatencyUs;

    @Option(names = "--all-runs", description = "from a joint calibration (calibrate --joint): above its largest run,"
            + " the pick fitted on every run instead of algorithms-nearest, the fit on the runs nearest it")
    boolean allRuns;

    /** {@code --interconnect}, null when not given. */
    public String interconnect() {
        return source == null ? null : source.interconnect;
    }

    /** Whether any option that only a prediction reads was given. */
    public boolean anyPredictionOnly() {
        return dataset != null || stepLatencyUs != null || allRuns
                || source != null && (source.calibration != null || source.bandwidthGBps != null);
    }

    /** Whether the source holds several models to pick from by name (--dataset, --calibration). */
    public boolean namesAModel() {
        return dataset != null || source != null && source.calibration != null;
    }

    /**
     * The model the options name, at the configuration asked for.
     *
     * @param command the command, for the messages ({@code predict})
     * @param model   the model's name, null for the best one
     * @param gpus    N to predict at, null for the calibrated N
     * @param nodes   nodes (domains, for a two-tier model) to predict at, null for the calibrated ones
     * @throws HarnessException exit 2 when the options do not name one source or contradict each other
     */
    public PredictionModel resolve(String command, String model, Integer gpus, Integer nodes) {
        if (gpus != null && gpus < 2) {
            throw usage(command, "--gpus must be at least 2 (a collective needs two ranks), got " + gpus);
        }
        if (nodes != null && nodes < 1) {
            throw usage(command, "--nodes must be at least 1, got " + nodes);
        }
        HardwareFacts facts = HardwareFacts.bundled();
        PredictionModel pm;
        if (source == null) {
            if (dataset == null) {
                throw usage(command, "say where the model comes from: --calibration FILE, --dataset ID, --interconnect"
                        + " NAME or --bandwidth BW --step-latency L");
            }
            pm = PredictionSources.dataset(dataset, model, facts);
        } else if (source.calibration != null) {
            pm = PredictionSources.calibration(source.calibration, dataset, model, gpus, nodes, allRuns);
        } else if (source.interconnect != null) {
            requireGpus(command, gpus, "--interconnect");
            noDataset(command, model, "--interconnect");
            return PredictionSources.interconnect(source.interconnect, gpus, nodes, facts);
        } else if (source.bandwidthGBps != null) {
            requireGpus(command, gpus, "--bandwidth");
            noDataset(command, model, "--bandwidth");
            if (stepLatencyUs == null) {
                throw usage(command, "--bandwidth needs --step-latency (the per-step latency L, e.g. 10us)");
            }
            if (nodes != null) {
                throw usage(command, "the raw ring formula has one tier: drop --nodes");
            }
            // --bandwidth is above 0 and --step-latency finite (their converters refuse the rest as usage errors);
            // the formula's own check is for callers of the library
            return PredictionSources.ringFormula(source.bandwidthGBps, stepLatencyUs, gpus);
        } else {
            throw new IllegalStateException("picocli admitted an empty source group");
        }
        return reconfigure(command, pm, gpus, nodes);
    }

    private PredictionModel reconfigure(String command, PredictionModel pm, Integer gpus, Integer nodes) {
        if (stepLatencyUs != null) {
            throw usage(command, "--step-latency belongs to --bandwidth (the raw ring formula)");
        }
        if (gpus == null && nodes == null) {
            return pm.asStored();
        }
        boolean oneTier = pm.model().oneTier();
        if (oneTier && nodes != null && pm.calibratedNodes() != null && !nodes.equals(pm.calibratedNodes())) {
            // as the raw ring formula: the same numbers under another node count would read as a prediction for it
            throw usage(command, "model " + pm.name() + " has one tier: it has no term for the network that "
                    + nodes + " nodes instead of " + pm.calibratedNodes() + " change; drop --nodes, or use a model with"
                    + " one (--model algorithms, or a two-tier form, of a multi-node calibration)");
        }
        if (oneTier && gpus != null && !gpus.equals(pm.ranks()) && pm.calibratedNodes() != null
                && pm.calibratedNodes() > 1) {
            // across hosts one tier averages NVLink and the network: another N changes their mix (check refuses too)
            throw usage(command, "model " + pm.name() + " has one tier, fitted to " + pm.ranks() + " GPUs on "
                    + pm.calibratedNodes() + " nodes: at " + gpus + " GPUs the nodes or the GPUs per node change, and it"
                    + " has no term for either; use a model with two (--model algorithms, or a two-tier form)");
        }
        // --nodes alone on a model that keeps its domain size: N follows, as the domains times their GPUs
        Integer domainSize = pm.model().domains().map(TwoTierConfig::gpusPerDomain).orElse(null);
        int ranks = gpus != null ? gpus : nodes != null && domainSize != null ? gpusOf(command, nodes, domainSize)
                : pm.ranks();
        try {
            return pm.at(ranks, nodes);
        } catch (IllegalArgumentException e) {
            throw usage(command, e.getMessage());
        }
    }

    /** The GPUs of --nodes domains of the model's size: refused (naming --nodes) above {@link CountConverter#MAX}. */
    private static int gpusOf(String command, int nodes, int domainSize) {
        long gpus = Math.multiplyExact((long) nodes, domainSize);
        if (gpus > CountConverter.MAX) {
            throw usage(command, "--nodes " + nodes + " of the model's " + domainSize + " GPUs each is " + gpus
                    + " GPUs, above the " + CountConverter.MAX + " (2^20) a count here takes");
        }
        return (int) gpus;
    }

    private static void requireGpus(String command, Integer gpus, String flag) {
        if (gpus == null) {
            throw usage(command, flag + " needs --gpus N");
        }
    }

    private void noDataset(String command, String model, String flag) {
        if (dataset != null || model != null) {
            throw usage(command, "--dataset and --model go with --calibration FILE, or --dataset alone; not with "
                    + flag);
        }
    }

    public static HarnessException usage(String command, String msg) {
        return new HarnessException(ExitCode.USAGE, command + ": " + msg);
    }
}
