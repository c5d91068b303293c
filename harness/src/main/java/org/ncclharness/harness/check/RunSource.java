package org.ncclharness.harness.check;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.datasets.DatasetCatalog;
import org.ncclharness.calibration.io.InputException;
import org.ncclharness.calibration.io.Inputs;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.harness.RunMetadataOptions;

/**
 * What {@code check} reads as a run or a baseline: a bundled dataset id, a sweep JSON (ours or nccl-tests'),
 * the project CSV or any readable nccl-tests log. What a file does not say about its configuration comes from
 * the flags {@code calibrate} uses (--gpus, --nodes, --interconnect); a flag never overrides what the file
 * says differently.
 */
final class RunSource {

    /** --gpus, --nodes, --interconnect: null where not given. */
    record Flags(Integer gpus, Integer nodes, String interconnect) {
        static Flags none() {
            return new Flags(null, null, null);
        }
    }

    private RunSource() {
    }

    static Sweep read(String nameOrId, Flags flags) {
        Optional<Dataset> d = DatasetCatalog.bundled().find(nameOrId);
        if (d.isPresent() && !Files.exists(Path.of(nameOrId))) {
            return d.get().sweep();
        }
        if (!Files.exists(Path.of(nameOrId)) && !nameOrId.equals("-")) {
            throw new InputException(nameOrId, 0, "neither a file nor a bundled dataset id (java -jar harness.jar"
                    + " datasets lists them)");
        }
        List<Sweep> sweeps = Inputs.read(nameOrId);
        Sweep s = sweeps.get(0);
        if (sweeps.size() > 1) {
            List<String> notes = new ArrayList<>(s.notes());
            notes.add("the file holds " + sweeps.size() + " tables; the first (" + s.rows().get(0).type() + " "
                    + s.rows().get(0).redop() + ") is checked");
            s = new Sweep(s.provenance(), s.collective(), s.run(), s.hardware(), s.devices(), s.rows(), notes);
        }
        return complete(nameOrId, s, flags);
    }

    private static Sweep complete(String file, Sweep s, Flags f) {
        Hardware h = s.hardware() == null ? Hardware.unknown() : s.hardware();
        Integer ranks = RunMetadataOptions.reconcile(file, "GPU count", h.ranks() != null ? h.ranks() : s.devices().isEmpty() ? null
                : s.devices().size(), f.gpus(), "--gpus");
        Integer hosts = RunMetadataOptions.reconcile(file, "node count", h.hosts(), f.nodes(), "--nodes");
        String intra = h.intra();
        String inter = h.inter();
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
