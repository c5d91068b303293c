package org.ncclharness.calibration.diagnose;

import java.util.HashSet;
import java.util.Set;
import org.ncclharness.calibration.measure.Sweep;
import org.ncclharness.calibration.read.RunDocument;
import org.ncclharness.calibration.resolve.Hints;
import org.ncclharness.calibration.resolve.ResolveException;
import org.ncclharness.calibration.resolve.ResolvedRun;
import org.ncclharness.calibration.resolve.RunResolver;

/**
 * N and the host count of a document's tables as {@link RunResolver} resolves them (no hints, unstated hosts left
 * unknown), for the diagnosis of the same log: where its NCCL lines or device list show some ranks only (an
 * excerpt, a list cut at rank 99 of 1024, the last rank's lines alone), the counts they show are lower bounds, and
 * the diagnosis reports the resolved ones, as {@code check} and {@code calibrate} do.
 *
 * @param ranks N, null where no table says or the tables differ (a script's runs of 8 to 64 ranks)
 * @param hosts the host count, null the same way
 */
public record RunShape(Integer ranks, Integer hosts) {

    public static final RunShape UNKNOWN = new RunShape(null, null);

    public static RunShape of(RunDocument doc) {
        Set<Integer> ranks = new HashSet<>();
        Set<Integer> hosts = new HashSet<>();
        for (Sweep table : doc.sweeps()) {
            try {
                ResolvedRun run = RunResolver.bundled().resolve(doc, table, Hints.NONE,
                        RunResolver.UnstatedHosts.LEAVE_UNKNOWN);
                ranks.add(run.hardware().ranks());
                hosts.add(run.hardware().hosts());
            } catch (ResolveException e) {
                return UNKNOWN; // the tables contradict themselves: the lines' own counts stand
            }
        }
        return new RunShape(ranks.size() == 1 ? ranks.iterator().next() : null,
                hosts.size() == 1 ? hosts.iterator().next() : null);
    }
}
