package org.ncclharness.calibration.read;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NICs NCCL states at NCCL_DEBUG=INFO: {@code NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_3:1/RoCE [RO]; OOB
 * eth0:10.0.0.1<0>} lists every device:port it will use on that host ({@code [RO]} is a flag, not a NIC); NCCL 2.3
 * printed one per line ({@code NET/IB: [0] mlx5_1:1/IB}); aws-ofi-nccl says how many it found. The one reading of these lines, for {@code check}'s
 * line rate and for {@code diagnose}.
 */
public final class NicCount {

    private static final Pattern USING = Pattern.compile("NET/IB ?: (?:Using )?((?:\\[\\d+\\] ?[^\\s\\[;]+:\\d+/\\S+ ?)+)");
    /** aws-ofi-nccl (EFA, Slingshot's cxi): {@code NET/OFI Selected Provider is efa (found 32 nics)}, per host. */
    private static final Pattern OFI = Pattern.compile("NET/OFI Selected [Pp]rovider is [^()]*\\(found (\\d+) nics?\\)");
    private static final Pattern DEVICE = Pattern.compile("\\[\\d+\\] ?([^\\s\\[;]+:\\d+/[A-Za-z/]+)");

    private NicCount() {
    }

    /** The device:port/link entries of one NCCL message, empty when it is not a NET/IB device list. */
    public static List<String> devices(String message) {
        if (!message.contains("NET/IB")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        Matcher u = USING.matcher(message);
        if (u.find()) {
            Matcher d = DEVICE.matcher(u.group(1));
            while (d.find()) {
                out.add(d.group(1));
            }
        }
        return out;
    }

    /** The distinct device:port/link entries every NET/IB device list of the lines names, in order seen. */
    public static List<String> devicesIn(Iterable<String> lines) {
        Tally t = new Tally();
        lines.forEach(t::accept);
        return t.devices();
    }

    /**
     * NICs per host: the distinct devices the log's NET/IB lines name (every host of a job lists the same), else
     * the count aws-ofi-nccl says it found.
     */
    public static OptionalInt fromLines(Iterable<String> lines) {
        Tally t = new Tally();
        lines.forEach(t::accept);
        return t.count();
    }

    /** The NICs the lines of a log name, gathered as it streams past. */
    public static final class Tally {
        private final Set<String> all = new LinkedHashSet<>();
        private int ofi;

        public void accept(String line) {
            all.addAll(NicCount.devices(line));
            Matcher m = line.contains("NET/OFI") ? OFI.matcher(line) : null;
            if (m != null && m.find()) {
                ofi = Math.max(ofi, Integer.parseInt(m.group(1)));
            }
        }

        /** The distinct NET/IB device entries, in order seen. */
        public List<String> devices() {
            return List.copyOf(all);
        }

        /** NICs per host: the NET/IB devices, else aws-ofi-nccl's count; empty where neither was printed. */
        public OptionalInt count() {
            return !all.isEmpty() ? OptionalInt.of(all.size()) : ofi > 0 ? OptionalInt.of(ofi) : OptionalInt.empty();
        }
    }
}
