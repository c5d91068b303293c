package org.ncclharness.harness.launch;

import java.io.IOException;
import java.io.PrintStream;

/** Joins the job: rank 0 opens the rendezvous, the others connect to it, a single process needs neither. */
public final class JobGroups {

    private JobGroups() {
    }

    /**
     * Returns once every rank has joined (or throws {@link JobFailedException}, exit 4, naming who did not).
     *
     * @param self           this rank as the others will see it (its rank must be {@code place.rank()})
     * @param ifnamePrefixes {@code HARNESS_SOCKET_IFNAME}: interfaces rank 0 advertises in a file rendezvous
     * @param log            where rank 0 reports refused connections and a halting process says why
     */
    public static JobGroup join(Place place, RendezvousSpec spec, Member self, JobIdentity identity,
            JobOptions options, String ifnamePrefixes, PrintStream log) {
        if (self.rank() != place.rank()) {
            throw new IllegalArgumentException("member rank " + self.rank() + " != place rank " + place.rank());
        }
        if (place.worldSize() == 1) {
            return new LocalGroup(self);
        }
        if (place.rank() != 0) {
            return PeerGroup.open(place, spec, self, identity, options, log);
        }
        try {
            return RootGroup.open(place, spec, self, identity, options, log, ifnamePrefixes);
        } catch (IOException e) {
            throw new JobFailedException(place.label() + ": rank 0 cannot open the rendezvous "
                    + spec.describe() + ": " + e.getMessage());
        }
    }
}
