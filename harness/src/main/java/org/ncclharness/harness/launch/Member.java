package org.ncclharness.harness.launch;

import java.util.List;

/**
 * One rank as the job knows it: what it told rank 0 when it joined.
 *
 * @param rank       its rank
 * @param host       host name, for messages
 * @param hostId     the {@link HostId} value, which decides who shares a host
 * @param pid        process id, for messages and for killing it
 * @param localRank  local rank: from the launcher when a rank joins (-1 if unknown); recomputed from host ids
 *                   in {@link JobGroup#members()}
 * @param localSize  local size, likewise
 * @param cpus       {@code Runtime.availableProcessors()}: 1 means the launcher pinned the rank to one core
 * @param gpuBusIds  PCI bus ids of the GPUs this rank sees, in device order (empty without a GPU)
 */
public record Member(int rank, String host, String hostId, long pid, int localRank, int localSize, int cpus,
        List<String> gpuBusIds) {

    public Member {
        gpuBusIds = List.copyOf(gpuBusIds);
    }

    /** {@code rank 2 (host=node07, pid=4242)}: how every message names a rank. */
    public String describe() {
        return pid < 0 ? "rank " + rank + " at " + host : "rank " + rank + " (host=" + host + ", pid=" + pid + ")";
    }

    Member withLocal(int newLocalRank, int newLocalSize) {
        return new Member(rank, host, hostId, pid, newLocalRank, newLocalSize, cpus, gpuBusIds);
    }
}
