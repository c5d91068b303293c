package org.ncclharness.calibration.resolve;

import org.ncclharness.calibration.read.LogNetwork;

/**
 * An interconnect and who stated it: the user (a hint), or the log's own lines ({@link LogNetwork}).
 *
 * @param name  the interconnect, as hardware/interconnects.json names it
 * @param asTwoTiers true where the user named the tiers separately (the network is {@link Hints#inter()})
 * @param log   the log's lines that named it, null where the user did
 */
public record NamedInterconnect(String name, boolean asTwoTiers, LogNetwork.Named log) {

    static NamedInterconnect byUser(String name) {
        return new NamedInterconnect(name, false, null);
    }

    static NamedInterconnect byUserAsInter(String name) {
        return new NamedInterconnect(name, true, null);
    }

    static NamedInterconnect byLog(LogNetwork.Named named) {
        return new NamedInterconnect(named.interconnect(), false, named);
    }

    public boolean fromLog() {
        return log != null;
    }
}
