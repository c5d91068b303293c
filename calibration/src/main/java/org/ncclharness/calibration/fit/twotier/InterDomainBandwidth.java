package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;

/**
 * β_IB broken down the ways a platform engineer checks it: per domain (what the model fits), per GPU, and per
 * NIC where the number of NICs in a domain is known; against the NIC's line rate where that is known.
 *
 * @param nicsPerDomain  NICs per host × hosts per domain; null when the source does not say
 * @param perNicGBps     null when nicsPerDomain is unknown
 * @param nicGBps        one NIC's line rate (decimal GB/s); null when unknown
 * @param uIb            perNicGBps / nicGBps; null when either is unknown
 */
public record InterDomainBandwidth(double perDomainGBps, double perGpuGBps, Integer nicsPerDomain,
                                   Double perNicGBps, Double nicGBps, Double uIb) {

    public static InterDomainBandwidth of(double betaIbGBps, TwoTierConfig c, Integer nicsPerDomain, Double nicGBps) {
        Double perNic = nicsPerDomain == null || nicsPerDomain < 1 ? null : betaIbGBps / nicsPerDomain;
        Double u = perNic == null || nicGBps == null || !(nicGBps > 0) ? null : perNic / nicGBps;
        return new InterDomainBandwidth(betaIbGBps, betaIbGBps / c.gpusPerDomain(),
                perNic == null ? null : nicsPerDomain, perNic, nicGBps, u);
    }
}
