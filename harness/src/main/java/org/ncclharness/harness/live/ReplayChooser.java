package org.ncclharness.harness.live;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.ncclharness.calibration.datasets.Dataset;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Measurement;

/**
 * Which bundled dataset a GPU-less sweep replays (docs/sweep-and-check.md): among the datasets of the requested
 * collective that cover the most requested sizes, the one whose GPU count is closest to the job's — the same count if
 * any, then the nearest larger, then the nearest smaller — and on a tie the one with the most rows. Datasets mixing
 * several configurations, or not stating their GPU count, are never chosen automatically.
 */
public final class ReplayChooser {

    /** The dataset and why, in one line. */
    public record Choice(Dataset dataset, int covered, String why) { }

    private ReplayChooser() {
    }

    public static Choice choose(List<Dataset> all, Collective collective, List<Long> sizes, int jobGpus) {
        Set<Long> wanted = new HashSet<>(sizes);
        List<Dataset> candidates = all.stream()
                .filter(d -> d.collective() == collective)
                .filter(d -> !d.metadata().hasFlag("mixed-configurations"))
                .filter(d -> d.metadata().gpus() != null)
                .filter(d -> covered(d, wanted) > 0)
                .toList();
        if (candidates.isEmpty()) {
            return null;
        }
        Comparator<Dataset> order = Comparator.<Dataset>comparingInt(d -> -covered(d, wanted))
                .thenComparingInt(d -> distance(d.metadata().gpus(), jobGpus))
                .thenComparingInt(d -> -d.rows().size())
                .thenComparing(Dataset::id);
        Dataset best = candidates.stream().min(order).orElseThrow();
        int covered = covered(best, wanted);
        int most = covered;
        long sameCoverage = candidates.stream().filter(d -> covered(d, wanted) == most).count();
        int gpus = best.metadata().gpus();
        String gpuWhy = gpus == jobGpus ? "the same GPU count as the job (" + gpus + ")"
                : String.format(Locale.ROOT, "%d GPUs, the %s count to the job's %d among them", gpus,
                        gpus > jobGpus ? "nearest larger" : "nearest smaller (none is larger)", jobGpus);
        String why = String.format(Locale.ROOT, "covers %d of the %d requested sizes, the most of any bundled %s"
                        + " dataset (%d cover that many); %s; %d rows", covered, sizes.size(), collective.testName(),
                sameCoverage, gpuWhy, best.rows().size());
        return new Choice(best, covered, why);
    }

    /** How many of the requested sizes the dataset has a row with a bandwidth or a time for. */
    static int covered(Dataset d, Set<Long> wanted) {
        int n = 0;
        for (Measurement m : d.rows()) {
            boolean hasData = !m.outOfPlace().isEmpty() || !m.inPlace().isEmpty();
            if (hasData && wanted.contains(m.sizeBytes())) {
                n++;
            }
        }
        return n;
    }

    /** The same count first, then larger ones nearest first, then smaller ones nearest first. */
    static int distance(int gpus, int job) {
        return gpus >= job ? gpus - job : Integer.MAX_VALUE / 2 + (job - gpus);
    }
}
