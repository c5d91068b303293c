package org.ncclharness.calibration.read;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.ncclharness.calibration.measure.Device;

/**
 * Several jobs printing into one log. nccl-tests built without {@code MPI=1}, or started once per host, runs a
 * job of its own in every process: each measures its own GPUs, no rank talks across hosts, and their tables
 * interleave. Read as one table it would pass for a run of all their ranks (a two-host fit of two one-host runs),
 * so the reader refuses it and says what happened (NVIDIA/nccl-tests#182: "make clean, then make again with
 * MPI=1").
 *
 * <p>Two signs, either enough: the device list shows a rank number twice (each job lists its own rank 0), or the
 * sizes step back to one that is not a new cycle of the same sweep ({@code -N} repeats the sweep from its first
 * size; two interleaved jobs print 8 ... 256, 8, 512, 16).
 */
final class SeparateJobs {

    /** What several jobs in one log mean, and the fix. */
    private static final String WHAT = "several jobs printed into one log, each measuring only its own GPUs, not one"
            + " run of all of them (nccl-tests built without MPI=1 runs a job in every process); rebuild with"
            + " 'make clean && make MPI=1' and launch once with mpirun or srun, or give one job's output alone";

    private SeparateJobs() {
    }

    /** Why the device list shows several jobs, empty where every rank is listed once. */
    static Optional<String> inDevices(List<Device> devices) {
        Map<Integer, Set<String>> where = new LinkedHashMap<>();
        for (Device d : devices) {
            where.computeIfAbsent(d.rank(), r -> new LinkedHashSet<>()).add(d.host() + " pid " + d.pid());
        }
        for (Map.Entry<Integer, Set<String>> e : where.entrySet()) {
            if (e.getValue().size() > 1) {
                Set<String> hosts = new LinkedHashSet<>();
                devices.stream().filter(d -> d.rank() == e.getKey()).forEach(d -> hosts.add(d.host()));
                return Optional.of("the device list shows rank " + e.getKey() + " " + e.getValue().size()
                        + " times (" + (hosts.size() > 1 ? "on " + String.join(", ", hosts)
                        : "pids " + String.join(", ", e.getValue())) + "): " + WHAT);
            }
        }
        return Optional.empty();
    }

    /**
     * The index of the first row whose size steps back to one that does not start a new cycle of the same sweep,
     * or that breaks such a cycle; -1 where none does. A size equal to the one before is no sign: nccl-tests rounds
     * a size down to whole elements per rank, so an AllGather of 12 ranks prints 0, 0, 48.
     */
    static int interleavedAt(List<Long> sizes) {
        int cycleStart = 0;
        for (int i = 1; i < sizes.size(); i++) {
            long size = sizes.get(i);
            if (size < sizes.get(i - 1)) {
                if (size != sizes.get(0)) {
                    return i;
                }
                cycleStart = i;
            } else if (size != sizes.get(i - cycleStart)) {
                return i; // a new cycle must repeat the first one's sizes
            }
        }
        return -1;
    }

    /** The message for rows that interleave at {@code i}. */
    static String rows(List<Long> sizes, int i) {
        List<String> run = sizes.subList(Math.max(0, i - 2), i + 1).stream().map(String::valueOf).toList();
        return "the sizes run " + (i > 2 ? "..., " : "") + String.join(", ", run) + " B: neither one rising sweep nor"
                + " the sweep started again (-N): " + WHAT;
    }

}
