package org.ncclharness.calibration.calibrate;

import java.util.Optional;
import org.ncclharness.calibration.fit.Fit;

/**
 * What the calibration method (docs/calibration.md) is about for one single-tier run: the interconnect it was
 * compared with, the seed's utilisation u_r = BusBW_peak / β_phys and method B's per-hop latency ℓ_link. The
 * default summary and {@code --verbose} both show these, so they come from here.
 *
 * @param interconnect  the interconnect's vocabulary name
 * @param ur            the u_r the seed used; null where the data do not determine β or the interconnect has no β_phys
 * @param linkLatencyUs ℓ_link of method B where the data determine it or the user fixed it; null otherwise (not the
 *                      0 that bandwidth-only data leave)
 */
public record SeedHeadline(String interconnect, Double ur, Double linkLatencyUs) {

    public static SeedHeadline of(SingleTierCalibration s) {
        Double ur = s.identifiability().beta() ? s.seed().ur() : null;
        return new SeedHeadline(s.interconnect(), ur, methodB(s).map(f -> f.theta()[0]).orElse(null));
    }

    /** Method B's fit where its α means something: the data determine it, or the user fixed ℓ_link above 0. */
    static Optional<Fit> methodB(SingleTierCalibration s) {
        return s.fit(SingleTierCalibrator.METHOD_B).filter(f -> s.identifiability().alpha() || f.theta()[0] > 0);
    }
}
