package org.ncclharness.harness.launch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Local ranks the nccl-tests way: a rank's local rank is the number of lower ranks with the same host id, its
 * local size the number of ranks with that id. Checked against what the launcher said, because a mismatch means
 * the ranks are not the job they think they are (N singletons, two jobs on one port, containers sharing a boot
 * id without distinct host ids).
 */
public final class LocalRanks {

    private LocalRanks() {
    }

    /** The members, in rank order, with local rank and size recomputed from their host ids. */
    public static List<Member> recompute(List<Member> byRank) {
        Map<String, Integer> perHost = new HashMap<>();
        for (Member m : byRank) {
            perHost.merge(m.hostId(), 1, Integer::sum);
        }
        Map<String, Integer> seen = new HashMap<>();
        List<Member> out = new ArrayList<>(byRank.size());
        for (Member m : byRank) {
            int local = seen.merge(m.hostId(), 1, Integer::sum) - 1;
            out.add(m.withLocal(local, perHost.get(m.hostId())));
        }
        return out;
    }

    /**
     * The disagreement between the launcher's local ranks ({@code declared}) and the recomputed ones, as one
     * line, or empty when they agree (unknown declared values agree with anything).
     */
    public static Optional<String> mismatch(List<Member> declared, List<Member> recomputed) {
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < declared.size(); i++) {
            Member d = declared.get(i);
            Member r = recomputed.get(i);
            boolean rankBad = d.localRank() >= 0 && d.localRank() != r.localRank();
            boolean sizeBad = d.localSize() > 0 && d.localSize() != r.localSize();
            if (rankBad || sizeBad) {
                bad.add(d.describe() + " is local " + d.localRank() + "/" + d.localSize()
                        + " by the launcher but " + r.localRank() + "/" + r.localSize() + " by host id '"
                        + d.hostId() + "'");
            }
        }
        if (bad.isEmpty()) {
            return Optional.empty();
        }
        String shown = String.join("; ", bad.subList(0, Math.min(3, bad.size())))
                + (bad.size() > 3 ? "; and " + (bad.size() - 3) + " more" : "");
        return Optional.of("local ranks from the launcher disagree with host ids: " + shown
                + ": give each host (container) a distinct --host-id or " + HostId.ENV
                + ", and check that all ranks belong to one launch");
    }
}
