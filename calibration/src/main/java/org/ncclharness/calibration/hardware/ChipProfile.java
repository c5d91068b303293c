package org.ncclharness.calibration.hardware;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A chip profile for α method A (docs/calibration.md): α_step = 2c_c2c + c_ddr_r + c_ddr_w + c_noc + 2c_d2d, in µs.
 *
 * @param chip        chip name ({@code H200})
 * @param match       substrings that identify the chip in a GPU model string, case-insensitive
 * @param alphaStepUs α_step, µs
 * @param components  the five component latencies in µs; a value is null where the profile does not publish it
 *                    separately
 * @param source      where the profile comes from
 */
public record ChipProfile(String chip, List<String> match, double alphaStepUs, Map<String, Double> components,
                          String source) {

    /** The coefficients of the components in α_step. */
    static final Map<String, Integer> WEIGHTS = Map.of("c_c2c", 2, "c_ddr_r", 1, "c_ddr_w", 1, "c_noc", 1,
            "c_d2d", 2);

    public ChipProfile {
        match = List.copyOf(match);
        components = components == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(components));
    }

    /** True when the GPU model string names this chip. */
    public boolean matches(String gpuModel) {
        if (gpuModel == null) {
            return false;
        }
        String g = gpuModel.toUpperCase(Locale.ROOT);
        return match.stream().anyMatch(m -> g.contains(m.toUpperCase(Locale.ROOT)));
    }

    /** Method A: α = (N−1)·α_step. */
    public double alphaUs(int ranks) {
        return (ranks - 1) * alphaStepUs;
    }
}
