package org.ncclharness.gpu;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment each child process of an algorithm × protocol sweep starts with.
 *
 * <p>Why a child process per combination, not an in-process {@code setenv}: NCCL reads NCCL_ALGO and
 * NCCL_PROTO at communicator creation, but NCCL_DEBUG, NCCL_DEBUG_SUBSYS and NCCL_DEBUG_FILE once per
 * process, at its first call, so the untimed TUNING pass needs a fresh process anyway; {@code setenv} races
 * with NCCL's own threads calling {@code getenv}; Java's {@code System.getenv} would keep showing the old
 * values; and a clean process leaves no communicator, graph or registration state from the previous
 * combination. The cost (≈0.3 s of JVM start plus CUDA context creation per combination) is small next to
 * a sweep. The launcher sets these with {@link ProcessBuilder#environment()}.
 */
public final class NcclEnvironment {
    private NcclEnvironment() {
    }

    /** NCCL_ALGO / NCCL_PROTO for one combination; a null value leaves NCCL's own choice. */
    public static Map<String, String> forCombination(String algo, String proto) {
        Map<String, String> env = new LinkedHashMap<>();
        if (algo != null) {
            env.put("NCCL_ALGO", algo);
        }
        if (proto != null) {
            env.put("NCCL_PROTO", proto);
        }
        return env;
    }

    /**
     * The separate, untimed pass that finds what NCCL actually ran: INFO-level TUNING lines into files
     * ({@code %h} host, {@code %p} pid, expanded by NCCL), never onto the timed run's stdout.
     */
    public static Map<String, String> tuningPass(String algo, String proto, Path debugFilePrefix) {
        Map<String, String> env = forCombination(algo, proto);
        env.put("NCCL_DEBUG", "INFO");
        env.put("NCCL_DEBUG_SUBSYS", "INIT,ENV,TUNING");
        env.put("NCCL_DEBUG_FILE", debugFilePrefix + ".%h.%p");
        return env;
    }
}
