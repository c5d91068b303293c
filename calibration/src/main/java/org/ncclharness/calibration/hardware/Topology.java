package org.ncclharness.calibration.hardware;

/**
 * One topology of {@code hardware/topologies.json}.
 *
 * @param name        {@code NVSwitch}, {@code direct}, {@code PCIe}, {@code switched-network}
 * @param switched    whether the endpoints reach each other through a switch (NVSwitch, a network's switches): the
 *                    only place an in-network reduction (NVLS, SHARP) can run; a direct link or PCIe has none
 * @param betweenHosts whether it is a network that joins hosts (IB, RoCE, ...), not a fabric inside one
 * @param hopsPerStep physical hops a ring step crosses (method B: α = 2(N−1)·hops·ℓ_link)
 * @param inNetworkUr the conservative u_r used instead of a value above 1 when busbw exceeds the physical peak on
 *                    this topology (0.92 for NVSwitch-class systems, docs/calibration.md); null: keep the measured
 *                    value
 * @param source      where the figures come from
 */
public record Topology(String name, boolean switched, boolean betweenHosts, int hopsPerStep, Double inNetworkUr, String source) {
}
