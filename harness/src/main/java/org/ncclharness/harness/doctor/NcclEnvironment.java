package org.ncclharness.harness.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ncclharness.calibration.diagnose.Interfaces;

/**
 * The NCCL_* settings in a rank's environment that switch a fast path off: what {@code diagnose} names as the cause
 * when a log shows the slow path, said before the sweep runs. Warnings: a sweep still runs.
 */
final class NcclEnvironment {

    private NcclEnvironment() {
    }

    static List<Problem> warnings(Map<String, String> env) {
        List<Problem> out = new ArrayList<>();
        set(env, "NCCL_P2P_DISABLE", "1", "P2P (NVLink/PCIe peer-to-peer) is off: GPUs of a host fall back to"
                + " shared memory or the network", out);
        set(env, "NCCL_SHM_DISABLE", "1", "the shared-memory transport is off: without P2P, GPUs of a host talk"
                + " over the network", out);
        set(env, "NCCL_IB_DISABLE", "1", "InfiniBand/RoCE is off: across hosts NCCL runs on TCP sockets", out);
        String net = env.get("NCCL_NET");
        if (net != null && net.trim().equalsIgnoreCase("socket")) {
            out.add(new Problem(0, "NCCL_NET=" + net + " forces TCP sockets between hosts", "unset NCCL_NET unless"
                    + " the fabric has no RDMA"));
        }
        String p2pLevel = env.get("NCCL_P2P_LEVEL");
        if (p2pLevel != null && (p2pLevel.trim().equals("0") || p2pLevel.trim().equalsIgnoreCase("LOC"))) {
            out.add(new Problem(0, "NCCL_P2P_LEVEL=" + p2pLevel + " allows P2P between no GPUs", "unset"
                    + " NCCL_P2P_LEVEL, or raise it (NVL, PIX, PXB, PHB, SYS)"));
        }
        String gdr = env.get("NCCL_NET_GDR_LEVEL");
        if (gdr != null && (gdr.trim().equals("0") || gdr.trim().equalsIgnoreCase("LOC"))) {
            out.add(new Problem(0, "NCCL_NET_GDR_LEVEL=" + gdr + " turns GPUDirect RDMA off: network traffic is"
                    + " staged through host memory", "unset NCCL_NET_GDR_LEVEL"));
        }
        String ifname = env.get("NCCL_SOCKET_IFNAME");
        // a leading ^ makes the whole list an exclusion list; a leading = asks for exact names
        if (ifname != null && !ifname.trim().startsWith("^")) {
            for (String name : ifname.trim().replaceFirst("^=", "").split(",")) {
                String n = name.trim();
                if (Interfaces.loopback(n) || Interfaces.virtual(n)) {
                    out.add(new Problem(0, "NCCL_SOCKET_IFNAME=" + ifname + " names " + n + ", a "
                            + (Interfaces.loopback(n) ? "loopback" : "virtual (container, bridge or VPN)")
                            + " interface other hosts cannot reach", "name the host's routable interface (eth0,"
                            + " ib0, ...) or exclude these with ^docker,lo"));
                }
            }
        }
        for (String forced : List.of("NCCL_ALGO", "NCCL_PROTO")) {
            if (env.get(forced) != null && !env.get(forced).isBlank()) {
                out.add(new Problem(0, forced + "=" + env.get(forced) + " forces NCCL's choice: the busbw is this "
                        + forced.substring(5).toLowerCase(Locale.ROOT) + "'s, not the best NCCL would pick",
                        "unset " + forced + " for a baseline; keep it to measure one " + forced.substring(5)
                                .toLowerCase(Locale.ROOT)));
            }
        }
        return out;
    }

    private static void set(Map<String, String> env, String var, String value, String what, List<Problem> out) {
        if (value.equals(env.getOrDefault(var, "").trim())) {
            out.add(new Problem(0, var + "=" + value + ": " + what, "unset " + var + " unless it works around a"
                    + " known fault"));
        }
    }
}
