package org.ncclharness.harness.launch;

import java.util.List;

/**
 * This process's place in the job, as the launcher's environment (or the flags) gave it.
 *
 * @param launcher    who said so
 * @param rank        0-based rank
 * @param worldSize   number of ranks
 * @param localRank   rank among the ranks on this host, or -1 when the launcher does not say (recomputed from
 *                    host ids after joining)
 * @param localSize   ranks on this host, or -1 when the launcher does not say
 * @param jobId       the launcher's job id, or a stand-in (see {@code jobIdShared})
 * @param jobIdShared whether every rank of the job, on every host, sees the same {@code jobId}; when false it is
 *                    shared only by the ranks of one host (Hydra's proxy pid) or not at all
 * @param evidence    the variables or flags the place was read from, for the log
 * @param hints       advice that is not an error (e.g. a Slurm batch script that forgot srun)
 */
public record Place(Launcher launcher, int rank, int worldSize, int localRank, int localSize, String jobId,
        boolean jobIdShared, String evidence, List<String> hints) {

    public Place {
        hints = List.copyOf(hints);
    }

    /** {@code rank K/N}, the prefix of every line a rank prints. */
    public String label() {
        return "rank " + rank + "/" + worldSize;
    }

    /** {@code rank K/N: } in a job of several ranks, empty for one: the start of a line every rank prints. */
    public String rankLabel() {
        return worldSize > 1 ? label() + ": " : "";
    }

    public boolean localKnown() {
        return localRank >= 0 && localSize > 0;
    }
}
