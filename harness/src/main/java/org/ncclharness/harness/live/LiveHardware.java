package org.ncclharness.harness.live;

import java.util.List;
import org.ncclharness.calibration.hardware.Nics;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Provenance;
import org.ncclharness.calibration.measure.RunInfo;
import org.ncclharness.calibration.measure.SourceKind;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.calibration.resolve.RunResolver;
import org.ncclharness.harness.runs.FactAdvice;
import org.ncclharness.harness.runs.RunInputs;

/**
 * What a live sweep knows of its hardware: the GPUs and hosts it ran on, resolved as any run's facts are
 * ({@link RunInputs#resolve}) with the interconnect the user named; what the resolution decided (the GPU name's
 * fabric, the named network between hosts) is said in a heading line, never silently.
 */
final class LiveHardware {

    private LiveHardware() {
    }

    static Hardware of(String gpuName, int ranks, int hosts, String named, List<String> heading) {
        Sweep measured = new Sweep(new Provenance(SourceKind.MEASURED, "this job", null, "measured now"), null, RunInfo.unknown(),
                new Hardware(gpuName, ranks, hosts, null, null, null, null), List.of(), List.of(), List.of());
        ResolvedRun run = RunInputs.resolve(RunDocument.live("this job", measured), measured, new Hints(null, null,
                named, null, null, null, Nics.UNKNOWN), RunResolver.UnstatedHosts.LEAVE_UNKNOWN);
        run.notes().forEach(n -> heading.add("# " + FactAdvice.note(n)));
        return run.hardware();
    }
}
