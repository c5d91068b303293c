package org.ncclharness.harness.launch;

import java.util.Map;
import java.util.Optional;

/**
 * What makes two ranks "on the same host": by default the host name (up to the first dot) plus the kernel's boot
 * id, the string nccl-tests hashes ({@code getHostHash} in common.cu). Containers on one machine share the boot
 * id, and tests run fake hosts on one machine, so it can be overridden: {@code --host-id}, then
 * {@code HARNESS_HOST_ID}, then a {@code NCCL_HOSTID} the user already set (NCCL itself uses that one).
 *
 * <p>NCCL must agree with us about hosts, or it would pair ranks on different "hosts" over shared memory. When
 * the id is overridden, {@link #ncclEnvironment()} gives the {@code NCCL_HOSTID} the NCCL process needs; the
 * JVM cannot change its own environment, so whoever starts NCCL passes it on (the environment of a child
 * process, or a native {@code setenv} before the first NCCL call). With the default id nothing needs passing:
 * NCCL derives its host hash from the same host name and boot id.
 *
 * @param value      the id
 * @param source     where it came from, for the log
 * @param overridden true when it is not the default host name + boot id
 */
public record HostId(String value, String source, boolean overridden) {

    public static final String ENV = "HARNESS_HOST_ID";

    /** A pure function of its inputs; {@code hostname} and {@code bootId} are read by the caller. */
    public static HostId resolve(String flag, Map<String, String> env, String hostname, Optional<String> bootId) {
        if (flag != null && !flag.isBlank()) {
            return new HostId(flag.trim(), "--host-id", true);
        }
        if (env.containsKey(ENV) && !env.get(ENV).isBlank()) {
            return new HostId(env.get(ENV).trim(), ENV, true);
        }
        if (env.containsKey("NCCL_HOSTID") && !env.get("NCCL_HOSTID").isBlank()) {
            return new HostId(env.get("NCCL_HOSTID").trim(), "NCCL_HOSTID", true);
        }
        int dot = hostname.indexOf('.');
        String shortName = dot < 0 ? hostname : hostname.substring(0, dot);
        return bootId.map(b -> new HostId(shortName + b.trim(), "host name + boot id", false))
                .orElseGet(() -> new HostId(shortName, "host name (no boot id readable)", false));
    }

    /** The variables NCCL needs so that it groups ranks into hosts the way the harness did. */
    public Map<String, String> ncclEnvironment() {
        return overridden ? Map.of("NCCL_HOSTID", value) : Map.of();
    }
}
