package org.ncclharness.calibration.hardware;

/**
 * A host's NICs as the user, the log or a dataset's metadata states them: how many, and one NIC's rate.
 *
 * <p>Why the rate is carried at all: some networks have no fixed per-NIC figure in
 * {@code hardware/interconnects.json} (EFA is stated per instance, TCP runs over whatever Ethernet the host has), so
 * their line rate exists only where someone states the NIC's speed ({@code --nic-speed}, {@code datasets.json
 * nicGbps}).
 *
 * @param perHost    NICs per host, null where not stated
 * @param statedGBps one NIC's rate in GB/s (decimal bytes) as stated, null where not stated
 */
public record Nics(Integer perHost, Double statedGBps) {

    /** Nothing stated. */
    public static final Nics UNKNOWN = new Nics(null, null);
    private static final double BITS_PER_BYTE = 8;

    public Nics {
        if (perHost != null && perHost < 1) {
            throw new IllegalArgumentException("NICs per host must be at least 1, got " + perHost);
        }
        if (statedGBps != null && !(statedGBps > 0 && Double.isFinite(statedGBps))) {
            throw new IllegalArgumentException("a NIC's rate must be above 0, got " + statedGBps + " GB/s");
        }
    }

    /** The count and speed as a source states them, the speed in Gb/s (vendors' unit, {@code datasets.json}). */
    public static Nics ofGbps(Integer perHost, Double gbps) {
        return new Nics(perHost, gbps == null ? null : gbps / BITS_PER_BYTE);
    }

    /** The stated rate in Gb/s (vendors' unit, what {@code datasets.json nicGbps} holds), null where not stated. */
    public Double statedGbps() {
        return statedGBps == null ? null : statedGBps * BITS_PER_BYTE;
    }

    /** What this states, each part not stated taken from {@code other} (a flag first, then the metadata). */
    public Nics orElse(Nics other) {
        return new Nics(perHost != null ? perHost : other.perHost, statedGBps != null ? statedGBps : other.statedGBps);
    }

    /**
     * One NIC's rate in GB/s on {@code network}: the stated rate where there is one (a NIC of another speed than
     * the fabric's usual, or a fabric with no fixed figure), else the fabric's figure; null where neither says.
     */
    public Double rateGBps(Interconnect network) {
        if (statedGBps != null) {
            return statedGBps;
        }
        return network == null ? null : network.betaPhysGBps();
    }
}
