package org.ncclharness.harness.launch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How reports name the hosts of a job: by host name where the names tell the hosts apart, else by host id. The
 * default host id is the host name plus the kernel's boot id, unreadable in a report; an overridden one
 * ({@code --host-id}, HARNESS_HOST_ID: containers on one machine, or tests simulating hosts) is the only name that
 * separates hosts that share a host name.
 */
public final class HostLabels {

    private HostLabels() {
    }

    /** Host id → label, in the order the hosts first appear among the ranks. */
    public static Map<String, String> of(List<Member> members) {
        Map<String, String> names = new LinkedHashMap<>();
        for (Member m : members) {
            names.putIfAbsent(m.hostId(), m.host());
        }
        boolean distinct = names.values().stream().distinct().count() == names.size();
        Map<String, String> out = new LinkedHashMap<>();
        names.forEach((id, name) -> out.put(id, distinct ? name : id));
        return out;
    }
}
