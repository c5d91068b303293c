package org.ncclharness.calibration.read;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ncclharness.calibration.hardware.HardwareFacts;

/**
 * The network between hosts where a log's NCCL INFO lines name it exactly: aws-ofi-nccl's provider
 * ({@code NET/OFI Selected Provider is efa}: EFA; {@code cxi}: Slingshot 11) and NCCL's own sockets
 * ({@code Using network Socket}, {@code Using internal Network Socket} before 2.4: TCP). A log with no NCCL INFO
 * lines may still show its job's environment (a shell trace's {@code + export}, a printed {@code env}): a
 * libfabric CXI variable ({@code FI_CXI_...=}, {@code FI_PROVIDER=cxi}) is set only where HPE's Cassini NICs, Slingshot
 * 11, are used, and {@code FI_PROVIDER=efa} names EFA. NCCL's NET/IB device lines name a NIC's link layer and, from
 * about 2.20, its speed ({@code NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000}, Mb/s): where NCCL then
 * says it used IB ({@code Using network IB}), the fabric of that family whose line rate is that speed names the
 * network (400000 on IB: IB-NDR; 200000 on RoCE: RoCE-200G). Older NET/IB lines give no speed, so IB-HDR from
 * IB-NDR is not known there.
 */
public final class LogNetwork {

    private static final Pattern PROVIDER = Pattern.compile("NET/OFI Selected [Pp]rovider is (\\w+)");
    private static final Pattern SOCKET = Pattern.compile("NCCL INFO Using (?:internal )?[Nn]etwork Socket");
    private static final Pattern IB_USED = Pattern.compile("NCCL INFO Using (?:internal )?[Nn]etwork IB\\b");
    private static final Pattern IB_DEVICE = Pattern.compile("NET/IB ?: ?\\[\\d+\\] \\S+/(IB|RoCE)\\b.*?\\bspeed=(\\d{4,9})");
    private static final double MBPS_PER_GBPS = 8000;
    /** An environment assignment of libfabric's provider or of a CXI setting, quoted or not. */
    private static final Pattern FABRIC_ENV = Pattern.compile("(?<![\\w])'?(FI_CXI_\\w+|FI_PROVIDER)=['\"]?(\\w*)");

    /**
     * @param interconnect the name in hardware/interconnects.json
     * @param evidence     the line's words that say it, for the note
     * @param where        which lines those are ({@code the log's NCCL lines}, {@code the job's environment})
     */
    public record Named(String interconnect, String evidence, String where) {
    }

    private static final String NCCL_LINES = "the log's NCCL lines";
    private static final String ENVIRONMENT = "the job's environment in the log";

    private LogNetwork() {
    }

    /**
     * The first NCCL INFO line that names the network, read in order; else the first environment line that does;
     * empty where none does.
     */
    public static Optional<Named> of(Iterable<String> lines, HardwareFacts facts) {
        Finder f = new Finder(facts);
        lines.forEach(f::accept);
        return f.result();
    }

    /** The network a log names, looked for line by line as the log streams past. */
    public static final class Finder {
        private final HardwareFacts facts;
        private Named environment;
        private Named device;
        private Named found;

        public Finder(HardwareFacts facts) {
            this.facts = facts;
        }

        public void accept(String line) {
            if (found != null) {
                return;
            }
            // each pattern behind a plain substring test: a log of NCCL INFO lines runs to millions of lines
            Matcher d = device == null && line.contains("NET/IB") ? IB_DEVICE.matcher(line) : null;
            if (d != null && d.find()) {
                device = fromDevice(d, facts);
            }
            if (device != null && line.contains("etwork IB") && IB_USED.matcher(line).find()) {
                found = device;
                return;
            }
            Matcher p = line.contains("NET/OFI") ? PROVIDER.matcher(line) : null;
            if (p != null && p.find()) {
                String provider = p.group(1).toLowerCase(Locale.ROOT);
                if (provider.equals("efa")) {
                    found = new Named("EFA", p.group(), NCCL_LINES);
                    return;
                }
                if (provider.equals("cxi")) {
                    found = new Named("Slingshot11", p.group(), NCCL_LINES);
                    return;
                }
            }
            Matcher s = line.contains("Socket") ? SOCKET.matcher(line) : null;
            if (s != null && s.find()) {
                found = new Named("TCP", s.group().substring("NCCL INFO ".length()), NCCL_LINES);
                return;
            }
            if (environment == null && line.contains("FI_")) {
                environment = fromEnvironment(line);
            }
        }

        /** NCCL's own lines outrank the environment, which says what was configured rather than what was used. */
        public Optional<Named> result() {
            return Optional.ofNullable(found != null ? found : environment);
        }
    }

    /** The fabric of the device's family (IB-, RoCE-) whose line rate is its speed; null where none is. */
    private static Named fromDevice(Matcher d, HardwareFacts facts) {
        double gbps = Long.parseLong(d.group(2)) / MBPS_PER_GBPS;
        return facts.networkOf(d.group(1), gbps).map(ic -> new Named(ic.name(), d.group(), NCCL_LINES)).orElse(null);
    }

    private static Named fromEnvironment(String line) {
        Matcher e = FABRIC_ENV.matcher(line);
        if (!e.find()) {
            return null;
        }
        String value = e.group(2).toLowerCase(Locale.ROOT);
        if (e.group(1).startsWith("FI_CXI_") || value.equals("cxi")) {
            // a CXI setting is libfabric's CXI provider, which drives HPE's Cassini NICs only
            return new Named("Slingshot11", e.group(1) + "=" + e.group(2), ENVIRONMENT);
        }
        return value.equals("efa") ? new Named("EFA", "FI_PROVIDER=" + e.group(2), ENVIRONMENT) : null;
    }
}
