package org.ncclharness.calibration.io;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NICs per host as NCCL states them at NCCL_DEBUG=INFO: {@code NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_3:1/RoCE
 * [RO]; OOB eth0:10.0.0.1<0>} lists every device:port it will use on that host ({@code [RO]} is a flag, not a NIC).
 * Each process prints the line; the largest list is the host's.
 */
public final class NicCount {

    private static final Pattern USING = Pattern.compile("NET/IB ?: Using (.*?)(?:;|$)");
    private static final Pattern DEVICE = Pattern.compile("\\[\\d+\\][^\\s\\[;]+:\\d+/");

    private NicCount() {
    }

    public static OptionalInt fromLines(Iterable<String> lines) {
        int most = 0;
        for (String line : lines) {
            Matcher u = USING.matcher(line);
            if (u.find()) {
                Matcher d = DEVICE.matcher(u.group(1));
                int n = 0;
                while (d.find()) {
                    n++;
                }
                most = Math.max(most, n);
            }
        }
        return most == 0 ? OptionalInt.empty() : OptionalInt.of(most);
    }
}
