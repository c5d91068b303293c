package org.ncclharness.harness.check;

import java.util.List;
import org.ncclharness.calibration.hardware.HardwareFacts;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.io.LogNetwork;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.harness.PredictedRows;
import org.ncclharness.harness.RunInputs;
import org.ncclharness.harness.TableName;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.RunMetadataOptions;

/**
 * What {@code check} reads as a run or a baseline: a bundled dataset id, a sweep JSON (ours or nccl-tests'),
 * the project CSV or any readable nccl-tests log. What a file does not say about its configuration comes from
 * the flags {@code calibrate} uses (--gpus, --nodes, --interconnect); a flag never overrides what the file
 * says differently.
 */
final class RunSource {

    /**
     * --gpus, --nodes, --interconnect and calibrate's --intra/--inter: null where not given; {@code predicted}:
     * what --allow-predicted says of predicted tables.
     */
    record Flags(Integer gpus, Integer nodes, String interconnect, String intra, String inter,
                 PredictedRows predicted) {
        Flags(Integer gpus, Integer nodes, String interconnect) {
            this(gpus, nodes, interconnect, null, null, PredictedRows.REFUSED);
        }

        static Flags none() {
            return new Flags(null, null, null);
        }
    }

    private RunSource() {
    }

    /** Every table of the run, each completed from the flags. */
    static List<Sweep> readAll(String nameOrId, Flags flags, Collective given) {
        List<Sweep> tables = flags.predicted().admit(nameOrId, RunInputs.read(nameOrId, given),
                PredictedRows.Command.CHECK);
        for (Sweep s : tables) {
            if (!s.collective().known()) {
                // Every rule reads busbw through the collective's bus factor: no verdict without it
                String why = String.join("; ", s.notes().stream().filter(n -> n.contains("--collective"))
                        .map(n -> n.replaceAll("[;,]? ?pass --collective NAME\\)?", "")).toList());
                throw new InputException(nameOrId, 0, TableName.of(s) + ": the collective is not known (" + why + ")"
                        + (given != null ? "; the rows contradict --collective " + given.testName() + " too: their"
                        + " time and busbw columns disagree (the table was edited, or mixes runs)"
                        : "; pass --collective NAME (all_reduce, all_gather, ...)"));
            }
        }
        List<Sweep> completed = tables.stream().map(s -> complete(nameOrId, s, flags)).toList();
        for (int i = 0; i < tables.size(); i++) {
            Hardware h = tables.get(i).hardware() == null ? Hardware.unknown() : tables.get(i).hardware();
            if (h.intra() == null && h.inter() == null) {
                RunMetadataOptions.requireHosts(nameOrId, completed.get(i).hardware().hosts(),
                        RunMetadataOptions.networkFlag(flags.interconnect(), flags.inter(), HardwareFacts.bundled()));
            }
        }
        return completed;
    }

    /**
     * The baseline table for one table of the run: the baseline's table of the same collective, type and op
     * (its only table when it has one). A baseline of another collective is not comparable: refused.
     */
    static Sweep baselineFor(String nameOrId, Sweep run) {
        List<Sweep> tables = RunInputs.read(JudgedReference.baselineFile(nameOrId));
        Measurement first = run.rows().get(0);
        List<Sweep> same = tables.stream().filter(t -> t.collective() == run.collective()).toList();
        if (same.isEmpty()) {
            throw new InputException(nameOrId, 0, "the baseline is " + TableName.of(tables.get(0))
                    + (tables.size() > 1 ? " (and " + (tables.size() - 1) + " more tables)" : "")
                    + ", the run is " + TableName.of(run) + ": a baseline must be of the same collective");
        }
        Sweep base = same.stream().filter(t -> t.rows().get(0).type().equals(first.type())
                && t.rows().get(0).redop().equals(first.redop())).findFirst().orElse(same.get(0));
        return complete(nameOrId, base, Flags.none());
    }

    /**
     * A run that states no fabric, given the one a calibration entry was fitted on: a two-tier entry's both tiers,
     * a one-tier entry's interconnect as --interconnect would be read. A run that states its own keeps it.
     */
    static Sweep withFabric(String file, Sweep s, String intra, String inter, String oneTier) {
        Hardware h = s.hardware() == null ? Hardware.unknown() : s.hardware();
        if (h.intra() != null || h.inter() != null) {
            return s;
        }
        if (intra == null && inter == null) {
            return complete(file, s, new Flags(null, null, oneTier));
        }
        return s.withHardware(new Hardware(h.gpuModel(), h.ranks(), h.hosts(), h.domainSize(), h.domains(), intra,
                inter));
    }

    private static Sweep complete(String file, Sweep s, Flags f) {
        Hardware h = s.hardware() == null ? Hardware.unknown() : s.hardware();
        Integer ranks = RunMetadataOptions.reconcile(file, "GPU count", h.ranks() != null ? h.ranks() : s.devices().isEmpty() ? null
                : s.devices().size(), f.gpus(), "--gpus");
        Integer hosts = RunMetadataOptions.reconcile(file, "node count", h.hosts(), f.nodes(), "--nodes");
        String intra = h.intra();
        String inter = h.inter();
        if (intra == null && inter == null && (f.intra() != null || f.inter() != null)) {
            // calibrate's two-tier flags name each tier
            intra = f.intra();
            inter = f.inter();
        }
        if (intra == null && inter == null && f.interconnect() == null && hosts != null && hosts > 1
                && RunInputs.isFile(file) && !file.equals("-")) {
            // the log's NCCL lines may name the network exactly (EFA, Slingshot, sockets), as calibrate reads them
            inter = LogNetwork.of(Inputs.text(file).lines()::iterator, HardwareFacts.bundled()).map(LogNetwork.Named::interconnect)
                    .orElse(null);
        }
        if (intra == null && inter == null && f.interconnect() != null) {
            // Across nodes the network bounds a ring's busbw, so that is what the one flag names there.
            boolean network = hosts != null && hosts > 1;
            intra = network ? null : f.interconnect();
            inter = network ? f.interconnect() : null;
        }
        Integer domains = h.domains() != null ? h.domains() : hosts;
        Integer domainSize = h.domainSize() != null ? h.domainSize()
                : ranks != null && hosts != null && ranks % hosts == 0 ? ranks / hosts : null;
        return s.withHardware(new Hardware(h.gpuModel(), ranks, hosts, domainSize, domains, intra, inter));
    }
}
