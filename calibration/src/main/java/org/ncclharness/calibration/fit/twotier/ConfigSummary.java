package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * The fit read at one configuration: the α terms the per-hop latencies give there, and the two combinations
 * one configuration always identifies (given sizes on both sides of the latency/bandwidth knee): the total
 * latency and the large-message bus bandwidth.
 *
 * @param latencySumUs        T_sw + α_nv + α_ib: the fitted time at M → 0
 * @param busBwAsymptoteGBps  busbw as M → ∞
 */
public record ConfigSummary(TwoTierConfig config, double alphaNvUs, double alphaIbUs, double tSwUs,
                            double latencySumUs, double busBwAsymptoteGBps) {
}
