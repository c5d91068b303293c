package org.ncclharness.calibration.diagnose;

import java.util.regex.Pattern;

/**
 * Network interfaces NCCL's sockets should not use: loopback, and the virtual ones of containers, bridges and
 * VPNs (including Docker's default 172.17.0.0/16). Names as NCCL prints them ({@code eth0:10.0.0.1<0>}) or as
 * NCCL_SOCKET_IFNAME gives them ({@code docker0}).
 */
public final class Interfaces {

    private static final Pattern VIRTUAL = Pattern.compile("^(docker\\d*|veth\\w*|br-\\w+|virbr\\d*|tailscale\\d*|cni\\d*"
            + "|flannel[\\w.]*|cali\\w+)(?:[:\\s<]|$)|:172\\.17\\.");
    private static final Pattern LOOPBACK = Pattern.compile("^lo(?:[:\\s<]|$)|:127\\.");

    private Interfaces() {
    }

    public static boolean loopback(String iface) {
        return LOOPBACK.matcher(iface.trim()).find();
    }

    public static boolean virtual(String iface) {
        return VIRTUAL.matcher(iface.trim()).find();
    }
}
