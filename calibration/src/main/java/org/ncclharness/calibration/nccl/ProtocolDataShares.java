package org.ncclharness.calibration.nccl;

import java.util.List;

/**
 * The share of each wire protocol's bytes that are data ({@code nccl/protocols.json}, from NCCL's line formats):
 * LL and LL128 carry their flags inside the data lines, so neither can move data faster than that share of
 * Simple's rate.
 */
public record ProtocolDataShares(String about, List<Share> protocols) {

    /** One protocol's data share, by its NCCL name, with where the line format says so. */
    public record Share(String name, double dataShare, String source) {
    }

    public ProtocolDataShares {
        protocols = List.copyOf(protocols);
        for (Protocol p : Protocol.values()) {
            if (protocols.stream().noneMatch(s -> s.name().equals(p.label()))) {
                throw new IllegalStateException("nccl/protocols.json has no data share for " + p.label());
            }
        }
    }

    public static ProtocolDataShares bundled() {
        return Bundled.SHARES;
    }

    /** Read on first use (the JVM's class initialisation makes it once and safely). */
    private static final class Bundled {
        static final ProtocolDataShares SHARES = NcclResource.read("/nccl/protocols.json", ProtocolDataShares.class,
                "NCCL protocol data shares");
    }

    /** The share of {@code p}'s bytes on the wire that are data. */
    public double of(Protocol p) {
        return protocols.stream().filter(s -> s.name().equals(p.label())).findFirst().orElseThrow().dataShare();
    }
}
