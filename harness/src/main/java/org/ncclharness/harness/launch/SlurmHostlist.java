package org.ncclharness.harness.launch;

import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;

/** The first host of a Slurm hostlist such as {@code gpu[007-010,012],login1}: where rank 0 runs under srun. */
final class SlurmHostlist {

    private SlurmHostlist() {
    }

    static String first(String hostlist) {
        String list = hostlist.trim();
        int comma = list.indexOf(',');
        int bracket = list.indexOf('[');
        if (bracket < 0 || (comma >= 0 && comma < bracket)) {
            String host = comma < 0 ? list : list.substring(0, comma);
            if (host.isEmpty()) {
                throw bad(hostlist);
            }
            return host;
        }
        int close = list.indexOf(']', bracket);
        if (close < 0) {
            throw bad(hostlist);
        }
        String prefix = list.substring(0, bracket);
        String range = list.substring(bracket + 1, close).split(",")[0];
        String start = range.split("-")[0];
        if (start.isEmpty() || !start.chars().allMatch(Character::isDigit)) {
            throw bad(hostlist);
        }
        // Zero padding is part of the name (gpu007): keep the digits as written.
        String suffix = list.substring(close + 1);
        int next = suffix.indexOf(',');
        return prefix + start + (next < 0 ? suffix : suffix.substring(0, next));
    }

    private static HarnessException bad(String hostlist) {
        return new HarnessException(ExitCode.USAGE, "SLURM_STEP_NODELIST=" + hostlist
                + ": expected a Slurm hostlist like node[01-04]; set --rendezvous tcp://HOST:PORT instead");
    }
}
