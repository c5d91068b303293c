package org.ncclharness.calibration.io;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The network between hosts where a log's NCCL INFO lines name it exactly: aws-ofi-nccl's provider
 * ({@code NET/OFI Selected Provider is efa}: EFA; {@code cxi}: Slingshot 11) and NCCL's own sockets
 * ({@code Using network Socket}, {@code Using internal Network Socket} before 2.4: TCP). NET/IB lines are not
 * read here: they name NICs and their link layer, not their speed, so IB-HDR from IB-NDR is not known.
 */
public final class LogNetwork {

    private static final Pattern PROVIDER = Pattern.compile("NET/OFI Selected [Pp]rovider is (\\w+)");
    private static final Pattern SOCKET = Pattern.compile("NCCL INFO Using (?:internal )?[Nn]etwork Socket");

    /**
     * @param interconnect the name in hardware/interconnects.json
     * @param evidence     the line's words that say it, for the note
     */
    public record Named(String interconnect, String evidence) {
    }

    private LogNetwork() {
    }

    /** The first line that names the network, read in order; empty where none does. */
    public static Optional<Named> of(Iterable<String> lines) {
        for (String line : lines) {
            Matcher p = PROVIDER.matcher(line);
            if (p.find()) {
                String provider = p.group(1).toLowerCase(java.util.Locale.ROOT);
                if (provider.equals("efa")) {
                    return Optional.of(new Named("EFA", p.group()));
                }
                if (provider.equals("cxi")) {
                    return Optional.of(new Named("Slingshot11", p.group()));
                }
            }
            Matcher s = SOCKET.matcher(line);
            if (s.find()) {
                return Optional.of(new Named("TCP", s.group().substring("NCCL INFO ".length())));
            }
        }
        return Optional.empty();
    }
}
