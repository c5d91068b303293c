package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import java.util.Arrays;
import org.ncclharness.calibration.measure.InputException;

/**
 * One AllReduce sweep at one configuration, as the two-tier fit needs it: sizes (bytes per rank) and measured
 * times (µs, one half, the caller chooses which). Arrays are copied in and out.
 *
 * @param label   where the points come from (a dataset id or file), used in messages
 */
public record TwoTierRun(String label, TwoTierConfig config, double[] bytes, double[] timeUs) {

    public TwoTierRun {
        if (bytes.length != timeUs.length) {
            throw new InputException(label, 0, bytes.length + " sizes but " + timeUs.length + " times");
        }
        if (bytes.length == 0) {
            throw new InputException(label, 0, "no rows with a time; the two-tier fit needs at least one");
        }
        if (config.ranks() < 2) {
            throw new InputException(label, 0, "configuration " + config.label()
                    + " has one rank; an AllReduce needs at least 2");
        }
        for (int i = 0; i < bytes.length; i++) {
            if (!(bytes[i] > 0) || !(timeUs[i] > 0) || !Double.isFinite(bytes[i]) || !Double.isFinite(timeUs[i])) {
                throw new InputException(label, 0, "row " + (i + 1) + ": size " + bytes[i] + " B, time "
                        + timeUs[i] + " us; both must be positive and finite");
            }
        }
        bytes = bytes.clone();
        timeUs = timeUs.clone();
    }

    @Override
    public double[] bytes() {
        return bytes.clone();
    }

    @Override
    public double[] timeUs() {
        return timeUs.clone();
    }

    public int points() {
        return bytes.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TwoTierRun r && label.equals(r.label) && config.equals(r.config)
                && Arrays.equals(bytes, r.bytes) && Arrays.equals(timeUs, r.timeUs);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * label.hashCode() + config.hashCode()) + Arrays.hashCode(bytes) * 7 + Arrays.hashCode(timeUs);
    }

    @Override
    public String toString() {
        return "TwoTierRun[" + label + ", " + config.label() + ", " + bytes.length + " points]";
    }
}
