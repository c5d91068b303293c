package org.ncclharness.calibration.fit.twotier;

import org.ncclharness.calibration.model.TwoTierConfig;
import java.util.ArrayList;
import java.util.List;
import org.ncclharness.calibration.measure.InputException;
import org.ncclharness.calibration.advice.Advice;
import org.ncclharness.calibration.advice.Setting;
import org.ncclharness.calibration.measure.Collective;
import org.ncclharness.calibration.measure.Half;
import org.ncclharness.calibration.measure.Hardware;
import org.ncclharness.calibration.measure.Measurement;
import org.ncclharness.calibration.measure.Placement;
import org.ncclharness.calibration.measure.Sweep;

/**
 * Turns a sweep into the two-tier fit's input: the configuration from its hardware (domains × GPUs per domain), the
 * sizes, and the times of one half (out-of-place where the sweep has it, else in-place: docs/calibration.md).
 */
public final class TwoTierRuns {

    /**
     * @param run   the points and configuration
     * @param half  which half the times come from
     */
    public record Extracted(TwoTierRun run, Placement half) {
    }

    private TwoTierRuns() {
    }

    /** With the configuration the sweep's hardware states. */
    public static Extracted of(Sweep s, String label) {
        Hardware h = s.hardware();
        if (h == null || h.domains() == null || h.domainSize() == null) {
            throw new InputException(label, 0, "the two-tier fit needs the configuration (domains x GPUs per domain)"
                    + " and the source does not state it; give " + Advice.name(Setting.GPU_COUNT) + ", "
                    + Advice.name(Setting.HOST_COUNT) + " and " + Advice.name(Setting.DOMAIN_SIZE));
        }
        return of(s, label, new TwoTierConfig(h.domains(), h.domainSize()));
    }

    /** With a configuration the caller supplies (flags, {@code --config FILE=16x2}). */
    public static Extracted of(Sweep s, String label, TwoTierConfig config) {
        if (s.collective() != Collective.ALL_REDUCE) {
            throw new InputException(label, 0, "the two-tier models describe AllReduce; this sweep is "
                    + s.collective().ncclName());
        }
        return points(s, label, config);
    }

    /**
     * The points of any collective at a configuration the caller supplies: what a multi-domain entry reports on
     * (its configurations and point counts) also where the two-tier forms do not apply.
     */
    public static Extracted points(Sweep s, String label, TwoTierConfig config) {
        Placement half = s.rows().stream().anyMatch(r -> r.outOfPlace().hasTime()) ? Placement.OUT_OF_PLACE
                : Placement.IN_PLACE;
        List<double[]> pts = new ArrayList<>();
        for (Measurement m : s.rows()) {
            Half x = m.preferred(half);
            if (x.hasTime() && x.timeUs() > 0 && m.sizeBytes() > 0) {
                pts.add(new double[] {m.sizeBytes(), x.timeUs()});
            }
        }
        double[] bytes = pts.stream().mapToDouble(p -> p[0]).toArray();
        double[] times = pts.stream().mapToDouble(p -> p[1]).toArray();
        return new Extracted(new TwoTierRun(label, config, bytes, times), half);
    }
}
