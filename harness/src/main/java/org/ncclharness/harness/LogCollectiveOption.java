package org.ncclharness.harness;

import org.ncclharness.calibration.measure.Collective;
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
        return RunInputs.collective(name);
    }
}
