package org.ncclharness.harness.options;

import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.harness.exit.ExitCode;
import org.ncclharness.harness.exit.HarnessException;
import picocli.CommandLine.Option;

/**
 * {@code --collective NAME}, shared by every command that reads logs: the collective of the tables whose log names
 * no program and whose rows do not tell (AllGather and AllToAll print identical rows).
 */
public final class LogCollectiveOption {
    @Option(names = "--collective", paramLabel = "NAME", description = "the collective of tables whose log does"
            + " not name its program and whose rows do not tell (all_gather, alltoall, ...)")
    String name;

    /** The collective given, null where none was; an unknown name is a usage error (exit 2). */
    public Collective value() {
        return collective(name);
    }

    /** {@code --collective NAME} as the user typed it: a collective the reader knows, or a usage error. */
    public static Collective collective(String name) {
        if (name == null) {
            return null;
        }
        return Collective.byName(name).filter(Collective::known).orElseThrow(() -> new HarnessException(
                ExitCode.USAGE, "invalid --collective '" + name + "': expected all_reduce, all_gather, "
                        + "reduce_scatter, broadcast, reduce, alltoall, alltoallv, sendrecv, gather, scatter or"
                        + " hypercube"));
    }
}
